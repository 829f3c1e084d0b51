import { describe, expect, it } from 'vitest';
import { GRAPH } from './graph.js';
import { graphProblems, orderedStages, type StageGraph } from './graph-types.js';
import type { Stage } from './stage.js';

const stage = (name: string, input: string): Stage => ({
  name,
  input,
  version: 1,
  description: name,
  columns: {},
  key: () => name,
  run: async () => ({ status: 'accepted' }),
});

describe('the stage graph', () => {
  it('is acyclic and every input is a stage or a declared source', () => {
    expect(graphProblems(GRAPH)).toEqual([]);
  });

  it('orders every stage after its input', () => {
    const order = orderedStages(GRAPH).map((s) => s.name);
    for (const s of GRAPH.stages) {
      if (order.includes(s.input)) expect(order.indexOf(s.input)).toBeLessThan(order.indexOf(s.name));
    }
    expect(order).toHaveLength(GRAPH.stages.length);
  });

  it('detects unknown inputs, duplicate names and cycles', () => {
    const g: StageGraph = {
      sources: [{ name: 'src', description: '', read: () => [] }],
      stages: [stage('a', 'src'), stage('b', 'c'), stage('c', 'b'), stage('d', 'nowhere'), stage('a', 'src')],
    };
    const problems = graphProblems(g);
    expect(problems).toContain('duplicate name "a"');
    expect(problems).toContain('stage "d" reads "nowhere", which is neither a stage nor a source');
    expect(problems).toContain('cycle through stage "b"');
  });

  it('declares unique column names that do not clash with the common columns', async () => {
    const { allColumns } = await import('./store/columns.js');
    for (const s of GRAPH.stages) expect(() => allColumns(s.columns)).not.toThrow();
  });
});
