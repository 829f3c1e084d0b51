import type { LoadedConfig } from '../config/load.js';
import type { LlmModelSettings } from '../config/schema.js';
import { ConfigError, SetupError } from '../errors.js';
import { redact, registerSecret } from '../log/secrets.js';

/** A model of `[llm.models.<name>]`, ready to call: endpoint, key and prices. */
export interface ModelEndpoint {
  /** The name in the config; what stages and the ledger call it. */
  name: string;
  settings: LlmModelSettings;
  /** Endpoint URL without credentials, for the ledger and messages. */
  publicUrl: string;
}

export function modelEndpoint(loaded: LoadedConfig, name: string): ModelEndpoint {
  const settings = loaded.config.llm.models[name];
  if (!settings) {
    const known = Object.keys(loaded.config.llm.models);
    throw new ConfigError(`${loaded.file}: model "${name}" is not defined: add [llm.models.${name}]${known.length ? ` (defined: ${known.join(', ')})` : ''}`);
  }
  // A key written literally in a config file is still a secret.
  registerSecret(settings.api_key);
  return { name, settings, publicUrl: redact(settings.base_url) };
}

/** The environment variable an API key comes from, as written in the config (`${VAR:-}`). */
export function apiKeyVariable(loaded: LoadedConfig, name: string): string | undefined {
  const template = loaded.templates.get(`llm.models.${name}.api_key`);
  return template?.match(/\$\{([A-Za-z_][A-Za-z0-9_]*)/)?.[1];
}

/**
 * Preflight: every named model is defined, and a key that comes from a variable is set. A key
 * written as `""` means the endpoint needs none (a local vLLM or Ollama).
 */
export function checkModels(loaded: LoadedConfig, names: readonly string[], stage: string): void {
  if (names.length === 0) throw new ConfigError(`${loaded.file}: ${stage}: the llm injector needs at least one model in ${stage}.llm.models`);
  for (const name of names) {
    const m = modelEndpoint(loaded, name);
    const variable = apiKeyVariable(loaded, name);
    if (variable && m.settings.api_key === '') {
      throw new SetupError(`${stage}: model ${name} (${m.publicUrl}) needs an API key: set the environment variable ${variable}`);
    }
  }
}

/** Cost in US dollars of a call with these token counts. */
export function costUsd(m: ModelEndpoint, tokensIn: number, tokensOut: number): number {
  return (tokensIn * m.settings.input_usd_per_mtok + tokensOut * m.settings.output_usd_per_mtok) / 1_000_000;
}
