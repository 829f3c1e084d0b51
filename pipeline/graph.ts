import type { StageGraph } from './graph-types.js';
import { candidatesSource, searchStage } from '../stages/search/index.js';
import { cloneStage } from '../stages/clone/index.js';
import { inspectStage } from '../stages/inspect/index.js';
import { baselineStage } from '../stages/baseline/index.js';
import { readmeStage } from '../stages/readme/index.js';
import { injectStage } from '../stages/inject/index.js';
import { conflictIssuesSource, conflictsStage } from '../stages/conflicts/index.js';
import { locateStage } from '../stages/locate/index.js';
import { reproduceStage } from '../stages/reproduce/index.js';

/**
 * Every stage and source of envforge, in pipeline order. This is the one place the engine
 * learns about stages; graph.test.ts checks it is acyclic and every input exists.
 */
export const GRAPH: StageGraph = {
  sources: [candidatesSource, conflictIssuesSource],
  stages: [searchStage, cloneStage, inspectStage, baselineStage, readmeStage, injectStage, conflictsStage, locateStage, reproduceStage],
};
