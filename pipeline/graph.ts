import type { StageGraph } from './graph-types.js';
import { searchStage, seartExportSource } from '../stages/search/index.js';
import { cloneStage } from '../stages/clone/index.js';
import { inspectStage } from '../stages/inspect/index.js';
import { baselineStage } from '../stages/baseline/index.js';

/**
 * Every stage and source of envforge, in pipeline order. This is the one place the engine
 * learns about stages; graph.test.ts checks it is acyclic and every input exists.
 */
export const GRAPH: StageGraph = {
  sources: [seartExportSource],
  stages: [searchStage, cloneStage, inspectStage, baselineStage],
};
