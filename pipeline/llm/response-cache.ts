import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The LLM response cache, `data/cache/llm/<ab>/<key>.json`, shared by every dataset. The key is
 * the hash of the full request (endpoint and body), so a rerun of a stage sends nothing and gets
 * the same answers. Entries are written to a temporary name and renamed: never torn.
 */
export interface CachedResponse {
  text: string;
  /** The assistant message when it carried tool calls (text alone cannot hold them). */
  message?: { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] };
  finish_reason: string | null;
  tokens_in: number;
  tokens_out: number;
  tokens_estimated: boolean;
  /** The model the endpoint said answered (may differ from the id asked for). */
  served_model: string | null;
  created_at: string;
}

export function llmCacheDir(cacheDir: string): string {
  return join(cacheDir, 'llm');
}

function entryPath(cacheDir: string, key: string): string {
  return join(llmCacheDir(cacheDir), key.slice(0, 2), `${key}.json`);
}

export async function readCached(cacheDir: string, key: string): Promise<CachedResponse | undefined> {
  let text: string;
  try {
    text = await readFile(entryPath(cacheDir, key), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(text) as { response?: CachedResponse };
    return typeof entry.response?.text === 'string' ? entry.response : undefined;
  } catch {
    return undefined; // a damaged entry is a miss; the next answer overwrites it
  }
}

export async function writeCached(cacheDir: string, key: string, request: unknown, response: CachedResponse): Promise<void> {
  const path = entryPath(cacheDir, key);
  await mkdir(join(path, '..'), { recursive: true });
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify({ key, request, response }) + '\n');
  await rename(tmp, path);
}
