import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../pipeline/config/load.js';
import { resetGitHubClients } from '../../pipeline/github/client.js';
import { GRAPH } from '../../pipeline/graph.js';
import { silentLogger } from '../../pipeline/log/logger.js';
import { runStage } from '../../pipeline/runner/run-stage.js';
import { ArtifactStore } from '../../pipeline/store/artifact-store.js';
import { layoutFor } from '../../pipeline/store/layout.js';
import { closeContributorJournals } from '../../stages/search/github-contributors.js';
import { searchStage } from '../../stages/search/index.js';
import { fakeRepo, generateRepos, startFakeGitHub, type FakeRepo } from '../servers/github-server.js';

/**
 * GitHub API requests per 1,000 candidate repositories (repositories the search queries
 * return), for a `search` run with source = "github" against the fake GitHub of
 * test/servers/github-server.ts, split into discovery + enrichment (GraphQL: counts for date
 * slicing and search pages carrying every field) and contributors (REST, finalists only).
 * Floor: one GraphQL request per 100 candidates + one contributor request per finalist.
 * Not a timed test: the figures are request counts, which do not depend on the machine.
 */

export interface GitHubBenchScenario {
  label: string;
  candidates: number;
  finalists: number;
  accepted: number;
  requests: { count: number; pages: number; contributors: number; total: number };
  per1000: { discoveryEnrichment: number; contributors: number; total: number };
  floor: { discoveryEnrichment: number; contributors: number; total: number; per1000DiscoveryEnrichment: number };
  /** measured / floor, discovery + enrichment and in total. */
  ratio: { discoveryEnrichment: number; total: number };
  contributorRequestsForNonFinalists: number;
  dateSlices: number;
  naiveRestEstimate: number;
  seconds: number;
}

export interface GitHubBenchResult {
  scenarios: GitHubBenchScenario[];
  note: string;
}

const TOKEN = 'ghp_benchbenchbenchbenchbenchbenchbench1';

async function scenario(label: string, repos: FakeRepo[], pageSize: number): Promise<GitHubBenchScenario> {
  const started = performance.now();
  const server = await startFakeGitHub({ repos, tokens: { [TOKEN]: { quota: 1_000_000 } } });
  const dataDir = mkdtempSync(join(tmpdir(), 'envforge-gh-bench-'));
  try {
    const text = [
      'dataset = "bench"',
      `data_dir = ${JSON.stringify(dataDir)}`,
      '[run]\njobs = 8\nbatch_size = 500\nflush_seconds = 1\nprogress_seconds = 600\nlog_level = "silent"',
      '[search]\nsource = "github"\nlicenses = ["MIT", "Apache-2.0", "BSD-3-Clause"]',
      '[github]',
      `api_url = ${JSON.stringify(server.url)}`,
      `token = ${JSON.stringify(TOKEN)}`,
      `page_size = ${pageSize}`,
      'graphql_interval_ms = 0',
      'retry_base_ms = 10',
    ].join('\n');
    const config = parseConfig(text, 'bench.toml', {});
    const store = await ArtifactStore.open(layoutFor(dataDir, 'bench'));
    let rows: Record<string, unknown>[];
    try {
      await runStage(searchStage, { graph: GRAPH, store, config, log: silentLogger }, { progressStream: { write: () => true } as unknown as NodeJS.WritableStream });
      rows = await store.latestRows(searchStage);
    } finally {
      store.close();
    }
    const candidates = rows.length;
    // Finalists: candidates that passed every criterion but contributors, i.e. accepted or
    // rejected for contributors alone (the contributor rule is the only one asked after).
    const finalistNames = new Set(rows.filter((r) => r.status === 'accepted' || r.reason === 'too_few_contributors' || r.reason === 'github_error').map((r) => String(r.key)));
    const contributorRepos = server.requests.filter((r) => r.kind === 'contributors').map((r) => r.path.split('/').slice(2, 4).join('/'));
    const count = server.count('graphql-count');
    const pages = server.count('graphql-search');
    const contributors = contributorRepos.length;
    const de = count + pages;
    const floorDe = Math.ceil(candidates / 100);
    const floorC = finalistNames.size;
    const per = (n: number) => Math.round((n / candidates) * 1000 * 10) / 10;
    const dateSlices = new Set(server.requests.flatMap((r) => r.parts.filter((p) => p.first > 0).map((p) => p.query))).size;
    return {
      label,
      candidates,
      finalists: finalistNames.size,
      accepted: rows.filter((r) => r.status === 'accepted').length,
      requests: { count, pages, contributors, total: server.requests.length },
      per1000: { discoveryEnrichment: per(de), contributors: per(contributors), total: per(server.requests.length) },
      floor: { discoveryEnrichment: floorDe, contributors: floorC, total: floorDe + floorC, per1000DiscoveryEnrichment: per(floorDe) },
      ratio: { discoveryEnrichment: round3(de / floorDe), total: round3(server.requests.length / (floorDe + floorC)) },
      contributorRequestsForNonFinalists: contributorRepos.filter((n) => !finalistNames.has(n)).length,
      dateSlices,
      naiveRestEstimate: candidates * 4,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    closeContributorJournals();
    resetGitHubClients();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function runGitHubBench(o: { repos: number; seed: number }, log: (line: string) => void): Promise<GitHubBenchResult> {
  const noise = (first: number) => [
    fakeRepo(first, { language: 'Go' }),
    fakeRepo(first + 1, { fork: true }),
    fakeRepo(first + 2, { archived: true }),
    fakeRepo(first + 3, { stars: 3 }),
  ];
  const scenarios: GitHubBenchScenario[] = [];
  log(`github: crawling ${o.repos.toLocaleString('en-US')} generated candidates (3 languages, created 2012–2023, skewed to recent years) ...`);
  scenarios.push(await scenario(`${o.repos.toLocaleString('en-US')} candidates, 3 languages`, [...generateRepos({ n: o.repos, seed: o.seed }), ...noise(10_000_000)], 100));
  log('github: crawling 1,000 candidates of one language ...');
  scenarios.push(await scenario('1,000 candidates, 1 language', [...generateRepos({ n: 1000, seed: o.seed + 1, languages: ['Python'] }), ...noise(10_000_000)], 100));
  return {
    scenarios,
    note:
      'discovery + enrichment = GraphQL count requests (date slicing) + GraphQL search pages that carry every field; ' +
      'contributors = REST contributors?per_page=1&anon=1, one per finalist; floor = ceil(candidates/100) + finalists; ' +
      'a naive REST crawl (search page + repo + commits + contributors per repository) is about 4 requests per candidate',
  };
}

/** Plain-text tables for `make bench` (no colours: the same in a log file). */
export function githubTables(r: GitHubBenchResult, Table: typeof import('cli-table3')): string {
  const style = { head: [] as string[], border: [] as string[] };
  const t = new Table({
    head: ['github crawl', 'candidates', 'finalists', 'GraphQL count + pages', 'per 1,000', 'floor per 1,000', 'vs floor', 'contributor req.', 'per finalist', 'total vs floor', 'naive REST est.'],
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    style,
  });
  for (const s of r.scenarios) {
    t.push([
      s.label,
      s.candidates.toLocaleString('en-US'),
      s.finalists.toLocaleString('en-US'),
      `${s.requests.count} + ${s.requests.pages}`,
      s.per1000.discoveryEnrichment.toFixed(1),
      s.floor.per1000DiscoveryEnrichment.toFixed(1),
      `${((s.ratio.discoveryEnrichment - 1) * 100).toFixed(1)}%`,
      s.requests.contributors.toLocaleString('en-US'),
      (s.requests.contributors / Math.max(1, s.finalists)).toFixed(2),
      `${((s.ratio.total - 1) * 100).toFixed(1)}%`,
      s.naiveRestEstimate.toLocaleString('en-US'),
    ]);
  }
  const bad = r.scenarios.filter((s) => s.contributorRequestsForNonFinalists > 0);
  return [
    t.toString(),
    `contributor requests for non-finalists: ${bad.length === 0 ? 'none' : bad.map((s) => `${s.label}: ${s.contributorRequestsForNonFinalists}`).join('; ')}`,
    `note: ${r.note}`,
  ].join('\n');
}
