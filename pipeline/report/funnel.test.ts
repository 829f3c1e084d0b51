import { describe, expect, it } from 'vitest';
import { funnelLines, type StageFunnel } from './funnel.js';

const f = (stage: string, input: string, rows: number, accepted: number, ran = true): StageFunnel => ({
  stage,
  input,
  description: stage,
  ran,
  rows,
  accepted,
  rejected: rows - accepted,
  error: 0,
  topReasons: [],
  runIds: [],
  configHashes: [],
  stageVersions: [],
});

describe('funnel lines', () => {
  it('gives one line per chain of stages, so branching recipes are not chained together', () => {
    const stages = [
      f('search', 'candidates', 36, 18),
      f('clone', 'search', 18, 15),
      f('inspect', 'clone', 15, 10),
      f('baseline', 'inspect', 10, 9),
      f('readme', 'inspect', 10, 8),
      f('inject', 'readme', 8, 16),
      f('conflicts', 'conflict_issues', 13, 11),
      f('locate', 'conflicts', 11, 4),
      f('reproduce', 'locate', 4, 1),
    ];
    expect(funnelLines(stages)).toEqual([
      '36 in → search 18 → clone 15 → inspect 10 → baseline 9',
      '36 in → search 18 → clone 15 → inspect 10 → readme 8 → inject 16',
      '13 in → conflicts 11 → locate 4 → reproduce 1',
    ]);
  });

  it('cuts each chain at its last stage that ran and drops chains contained in others', () => {
    const stages = [
      f('search', 'candidates', 36, 18),
      f('clone', 'search', 18, 15),
      f('baseline', 'clone', 0, 0, false),
      f('readme', 'clone', 0, 0, false),
      f('conflicts', 'conflict_issues', 0, 0, false),
    ];
    expect(funnelLines(stages)).toEqual(['36 in → search 18 → clone 15']);
    expect(funnelLines(stages.map((s) => ({ ...s, ran: false })))).toEqual([]);
  });
});
