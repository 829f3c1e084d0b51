import type { StageGraph } from './graph-types.js';
import { candidatesSource, searchStage } from '../stages/search/index.js';
import { cloneStage } from '../stages/clone/index.js';
import { inspectStage } from '../stages/inspect/index.js';
import { baselineStage } from '../stages/baseline/index.js';
import { readmeStage } from '../stages/readme/index.js';
import { injectStage } from '../stages/inject/index.js';
import { validateStage } from '../stages/validate/index.js';
import { reviewStage } from '../stages/review/index.js';
import { tiersStage } from '../stages/tiers/index.js';
import { conflictIssuesSource, conflictsStage } from '../stages/conflicts/index.js';
import { locateStage } from '../stages/locate/index.js';
import { reproduceStage } from '../stages/reproduce/index.js';
import { evaluateScriptsSource } from '../stages/evaluate/scripts-source.js';
import { evaluateStage } from '../stages/evaluate/index.js';
import { rolloutInstancesSource } from '../stages/rollout/instances-source.js';
import { rolloutStage } from '../stages/rollout/index.js';

/**
 * Every stage and source of envforge, in pipeline order. This is the one place the engine
 * learns about stages; graph.test.ts checks it is acyclic and every input exists.
 */
export const GRAPH: StageGraph = {
  sources: [candidatesSource, conflictIssuesSource, evaluateScriptsSource, rolloutInstancesSource],
  stages: [searchStage, cloneStage, inspectStage, baselineStage, readmeStage, injectStage, validateStage, reviewStage, tiersStage, conflictsStage, locateStage, reproduceStage, evaluateStage, rolloutStage],
};
