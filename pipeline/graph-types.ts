import type { Source, Stage } from './stage.js';

/** The stage graph: every stage with its input, and the sources first stages read. */
export interface StageGraph {
  stages: readonly Stage[];
  sources: readonly Source[];
}

export function findStage(graph: StageGraph, name: string): Stage | undefined {
  return graph.stages.find((s) => s.name === name);
}

export function findSource(graph: StageGraph, name: string): Source | undefined {
  return graph.sources.find((s) => s.name === name);
}

/** Problems with the graph itself: unknown inputs, duplicate names, cycles. Empty when sound. */
export function graphProblems(graph: StageGraph): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const node of [...graph.stages, ...graph.sources]) {
    if (names.has(node.name)) problems.push(`duplicate name "${node.name}"`);
    names.add(node.name);
  }
  for (const stage of graph.stages) {
    if (!findStage(graph, stage.input) && !findSource(graph, stage.input)) {
      problems.push(`stage "${stage.name}" reads "${stage.input}", which is neither a stage nor a source`);
    }
  }
  for (const stage of graph.stages) {
    const seen = new Set<string>([stage.name]);
    let cur = findStage(graph, stage.input);
    while (cur) {
      if (seen.has(cur.name)) {
        problems.push(`cycle through stage "${stage.name}"`);
        break;
      }
      seen.add(cur.name);
      cur = findStage(graph, cur.input);
    }
  }
  return problems;
}

/** Stages in dependency order (inputs before readers), stable by declaration order. */
export function orderedStages(graph: StageGraph): Stage[] {
  const out: Stage[] = [];
  const visit = (s: Stage) => {
    if (out.includes(s)) return;
    const up = findStage(graph, s.input);
    if (up) visit(up);
    out.push(s);
  };
  graph.stages.forEach(visit);
  return out;
}
