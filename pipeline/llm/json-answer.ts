/**
 * The JSON object in a model's answer: the whole text, or the body of a ```json fence, or the
 * outermost {...} when the model wrapped it in prose. Anything else is a problem to re-ask about.
 */
export type JsonAnswer = { ok: true; value: unknown } | { ok: false; problem: string };

export function parseJsonAnswer(text: string): JsonAnswer {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'the answer is empty' };
  const candidates = [trimmed];
  const fence = trimmed.match(/```(?:json|JSON)?[ \t]*\n([\s\S]*?)\n[ \t]*```/);
  if (fence?.[1]) candidates.push(fence[1]);
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  if (first !== -1 && last > first) candidates.push(trimmed.slice(first, last + 1));
  let problem = 'the answer is not JSON';
  for (const c of candidates) {
    try {
      const value: unknown = JSON.parse(c);
      if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value };
      problem = 'the answer is JSON but not an object';
    } catch (err) {
      problem = `the answer is not valid JSON (${err instanceof Error ? err.message : String(err)})`;
    }
  }
  return { ok: false, problem };
}
