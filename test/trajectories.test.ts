import { describe, expect, it } from 'vitest';
import { fromOpenAiRecord, fromShareGptRecord, selectTrajectories, toOpenAiRecord, toShareGptRecord, type ChatMessage, type TrajectoryRow } from '../pipeline/export/trajectories.js';
import { passAtK } from '../pipeline/report/rollout-models.js';
import { parseAgentOutput, typeSetScores } from '../stages/evaluate/enconda-scores.js';
import { taskFromRecord } from '../stages/evaluate/task.js';

const call = (id: string, command: string) => ({ id, type: 'function', function: { name: 'run_shell', arguments: JSON.stringify({ command }) } });
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You set up environments.' },
  { role: 'user', content: 'Set up gen/app.' },
  { role: 'assistant', content: null, tool_calls: [call('c1', 'ls')] },
  { role: 'tool', tool_call_id: 'c1', content: 'exit code: 0\nREADME.md' },
  { role: 'assistant', content: null, tool_calls: [call('c2', 'pip install -r requirements.txt'), call('c3', 'python -c "import app"')] },
  { role: 'tool', tool_call_id: 'c2', content: 'exit code: 0\nok' },
  { role: 'tool', tool_call_id: 'c3', content: 'exit code: 1\nModuleNotFoundError' },
  { role: 'assistant', content: 'Done.' },
];

describe('trajectory formats', () => {
  it('round-trip through OpenAI chat JSONL exactly', () => {
    const line = JSON.stringify(toOpenAiRecord({ messages: MESSAGES }));
    expect(fromOpenAiRecord(line)).toEqual(MESSAGES);
    expect(JSON.parse(line)).toMatchObject({ tools: [{ type: 'function', function: { name: 'run_shell' } }], parallel_tool_calls: false });
  });

  it('round-trip through ShareGPT (tool call ids renumbered), several calls in one turn included', () => {
    const rec = toShareGptRecord({ messages: MESSAGES });
    expect((rec.conversations as { from: string }[]).map((c) => c.from)).toEqual(['human', 'function_call', 'observation', 'function_call', 'observation', 'gpt']);
    const back = fromShareGptRecord(JSON.stringify(rec));
    const strip = (ms: ChatMessage[]) => JSON.stringify(ms).replace(/"(tool_call_id|id)":"[^"]*"/g, '"$1":"-"');
    expect(strip(back)).toBe(strip(MESSAGES));
  });

  it('filters by pass, model and instance', () => {
    const row = (instance_id: string, model: string, passed: boolean) => ({ instance_id, model, passed, benchmark: 'envbench' }) as TrajectoryRow;
    const rows = [row('a', 'm1', true), row('a', 'm2', false), row('b', 'm1', false)];
    expect(selectTrajectories(rows, { pass: true })).toHaveLength(1);
    expect(selectTrajectories(rows, { pass: false, models: ['m1'] })).toEqual([rows[2]]);
    expect(selectTrajectories(rows, { instances: ['a'] })).toHaveLength(2);
    expect(selectTrajectories(rows, { benchmarks: ['setupbench'] })).toHaveLength(0);
  });
});

describe('EnConda process-level scores', () => {
  const gold = [{ error_type: 'E1', error_description: 'd', golden_answer: 'g' }, { error_type: 'E4', error_description: 'd', golden_answer: 'g' }];
  it('precision / recall / F1 over error-type sets (duplicates count once)', () => {
    expect(typeSetScores([{ error_type: 'E1' }, { error_type: 'E1' }, { error_type: 'E2' }], gold)).toMatchObject({ precision: 0.5, recall: 0.5, f1: 0.5, predicted_types: ['E1', 'E2'], gold_types: ['E1', 'E4'] });
    expect(typeSetScores([{ error_type: 'E1' }, { error_type: 'e4' }], gold)).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    expect(typeSetScores([], gold)).toMatchObject({ precision: 0, recall: 0, f1: 0 });
    expect(typeSetScores([], [])).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });

  it("reads the agent's final answer into EnConda's agent output format", () => {
    const text = 'Summary first.\n```json\n{"errors": [{"error_type": "E7", "error_description": "python 2", "fix_answer": "use 3.11"}], "shell_script": "pip install ."}\n```';
    expect(parseAgentOutput(text, { repo_name: 'o_r', readme_name: 'o_r_error_readme_1' })).toEqual({
      repo_name: 'o_r', readme_name: 'o_r_error_readme_1', errors: [{ error_type: 'E7', error_description: 'python 2', fix_answer: 'use 3.11' }], shell_script: 'pip install .', raw_output: text,
    });
    expect(parseAgentOutput('no json here', { repo_name: 'o_r', readme_name: 'x' })).toMatchObject({ errors: [], shell_script: '' });
  });
});

describe('evaluation records and pass@k', () => {
  it('recognizes EnvBench, SetupBench and EnConda records', () => {
    expect(taskFromRecord({ repository: 'o/r', revision: 'ABCDEF1', script: 'x' })).toMatchObject({ benchmark: 'envbench', instance_id: 'o/r@abcdef1', revision: 'abcdef1' });
    expect(taskFromRecord({ repo: 'o/r', base_commit: 'abcdef1234', success_command: 'npm ci' })).toMatchObject({ benchmark: 'setupbench', instance_id: 'deps-r-abcde' });
    expect(taskFromRecord({ repository: 'o/r', gold: { readme: 'o_r_error_readme_1', errors: [] }, agent_output: { shell_script: 's' } })).toMatchObject({ benchmark: 'enconda', instance_id: 'o_r_error_readme_1', script: 's' });
    expect(taskFromRecord({ repository: 'o/r', revision: 'main', script: 'x' })).toEqual({ problem: 'revision "main" is not a commit SHA' });
    expect(taskFromRecord({ repository: 'o/r' })).toHaveProperty('problem');
  });

  it('pass@k is the unbiased estimator', () => {
    expect(passAtK(1, 1, 1)).toBe(1);
    expect(passAtK(4, 0, 2)).toBe(0);
    expect(passAtK(4, 1, 1)).toBeCloseTo(0.25);
    expect(passAtK(4, 1, 2)).toBeCloseTo(0.5);
    expect(passAtK(4, 3, 2)).toBe(1);
  });
});
