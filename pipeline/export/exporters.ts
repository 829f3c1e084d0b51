import { encondaExporter } from './enconda.js';
import { envbenchExporter } from './envbench.js';
import type { RecipeExporter } from './recipe.js';
import { setupbenchExporter } from './setupbench.js';
import { trajectoriesExporter } from './trajectories.js';

/**
 * Every recipe's exporter, declared in one place, in the order the dataset card lists them
 * (the first one that exports gives the Hub's default config). A recipe whose stages do not
 * exist yet or left no rows is skipped with a note; adding a recipe is adding a line here.
 */
export const EXPORTERS: readonly RecipeExporter[] = [envbenchExporter, encondaExporter, setupbenchExporter, trajectoriesExporter];
