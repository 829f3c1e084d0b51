import { stripComments } from './gradle-script.js';
import { asArray, asString, asTable, dig, parseProperties, type JsonObject, type Manifests } from './parse-manifests.js';
import { firstMeaningfulLine } from './detect-python-versions.js';
import type { RepoFacts } from './repo-facts.js';

/**
 * Java, Maven and Gradle version requirements declared in the root.
 *
 * java_versions keeps every declaration found, normalised to a major version, in this order
 * (java_version is the first): root pom.xml — maven.compiler.release/source/target properties,
 * maven-compiler-plugin release/source/target, the Spring Boot `java.version` property, enforcer
 * requireJavaVersion; root build.gradle(.kts) — toolchain languageVersion, Kotlin
 * jvmToolchain(N), sourceCompatibility, targetCompatibility, Kotlin jvmTarget; then .java-version
 * and .sdkmanrc. Build files come first because they state what the build needs; Maven before
 * Gradle because EnvBench's JVM script picks Maven when both exist.
 */

export type JavaVersionFacts = Pick<
  RepoFacts,
  'java_version' | 'java_versions' | 'java_version_sources' | 'gradle_version' | 'gradle_version_source' | 'maven_version' | 'maven_version_source'
>;

/**
 * "1.8" → "8", "17.0.2" → "17", "[11,18)" → "11" (a range's lower bound), "VERSION_1_8" → "8",
 * "17.0.9-tem" → "17". Undefined when there is no version number at all (e.g. "${unresolved}").
 */
export function normaliseJavaVersion(raw: string): string | undefined {
  const match = /(\d+)(?:[._](\d+))?/.exec(raw.replace(/^.*VERSION_/, ''));
  if (!match) return undefined;
  const major = match[1]!;
  if (major === '1' && match[2] !== undefined) return String(Number(match[2]));
  return String(Number(major));
}

class Versions {
  readonly java: string[] = [];
  readonly javaSources: string[] = [];
  maven: [string, string] | undefined;
  gradle: [string, string] | undefined;

  addJava(raw: string | undefined, source: string): void {
    const version = raw === undefined ? undefined : normaliseJavaVersion(raw);
    if (version) {
      this.java.push(version);
      this.javaSources.push(source);
    }
  }

  setTool(tool: 'maven' | 'gradle', version: string | undefined, source: string): void {
    if (version && !this[tool]) this[tool] = [version, source];
  }
}

export async function detectJavaVersions(rootNames: readonly string[], manifests: Manifests): Promise<JavaVersionFacts> {
  const names = new Set(rootNames);
  const v = new Versions();

  if (names.has('pom.xml')) {
    const pom = await manifests.xml('pom.xml');
    const project = pom.state === 'ok' ? asTable(pom.value.project) : undefined;
    if (project) readPom(project, v);
  }

  for (const name of ['build.gradle', 'build.gradle.kts']) {
    if (!names.has(name)) continue;
    const script = await manifests.text(name);
    if (script.state === 'ok') readGradleScript(stripComments(script.value), name, v);
  }

  const gradleWrapper = await manifests.text('gradle/wrapper/gradle-wrapper.properties');
  if (gradleWrapper.state === 'ok') {
    const url = parseProperties(gradleWrapper.value).get('distributionUrl') ?? '';
    v.setTool('gradle', /gradle-([^/]+?)-(?:bin|all)\.zip$/.exec(url)?.[1], 'gradle/wrapper/gradle-wrapper.properties:distributionUrl');
  }
  const mavenWrapper = await manifests.text('.mvn/wrapper/maven-wrapper.properties');
  if (mavenWrapper.state === 'ok') {
    const url = parseProperties(mavenWrapper.value).get('distributionUrl') ?? '';
    v.setTool('maven', /apache-maven-([^/]+?)-bin\.zip$/.exec(url)?.[1], '.mvn/wrapper/maven-wrapper.properties:distributionUrl');
  }

  if (names.has('.java-version')) {
    const pin = await manifests.text('.java-version');
    if (pin.state === 'ok') v.addJava(firstMeaningfulLine(pin.value), '.java-version');
  }
  if (names.has('.sdkmanrc')) {
    const rc = await manifests.text('.sdkmanrc');
    if (rc.state === 'ok') {
      const candidates = parseProperties(rc.value);
      v.addJava(candidates.get('java'), '.sdkmanrc:java');
      v.setTool('maven', candidates.get('maven'), '.sdkmanrc:maven');
      v.setTool('gradle', candidates.get('gradle'), '.sdkmanrc:gradle');
    }
  }

  return {
    java_version: v.java[0] ?? null,
    java_versions: v.java,
    java_version_sources: v.javaSources,
    gradle_version: v.gradle?.[0] ?? null,
    gradle_version_source: v.gradle?.[1] ?? null,
    maven_version: v.maven?.[0] ?? null,
    maven_version_source: v.maven?.[1] ?? null,
  };
}

function readPom(project: JsonObject, v: Versions): void {
  const properties = asTable(project.properties) ?? {};
  const property = (name: string): string | undefined => resolveProperties(asString(properties[name]), properties);
  for (const key of ['maven.compiler.release', 'maven.compiler.source', 'maven.compiler.target']) {
    v.addJava(property(key), `pom.xml:properties/${key}`);
  }

  const plugins = [
    ...asArray(dig(project, 'build', 'plugins', 'plugin')),
    ...asArray(dig(project, 'build', 'pluginManagement', 'plugins', 'plugin')),
  ];
  const plugin = (artifactId: string): unknown[] => plugins.filter((p) => asString(dig(p, 'artifactId')) === artifactId);

  for (const compiler of plugin('maven-compiler-plugin')) {
    for (const key of ['release', 'source', 'target']) {
      v.addJava(resolveProperties(asString(dig(compiler, 'configuration', key)), properties), `pom.xml:maven-compiler-plugin/${key}`);
    }
  }
  v.addJava(property('java.version'), 'pom.xml:properties/java.version');

  // Enforcer rules sit in the plugin's configuration or in an execution's.
  const enforcerRules = plugin('maven-enforcer-plugin').flatMap((p) => [
    dig(p, 'configuration', 'rules'),
    ...asArray(dig(p, 'executions', 'execution')).map((e) => dig(e, 'configuration', 'rules')),
  ]);
  for (const rules of enforcerRules) {
    v.addJava(resolveProperties(asString(dig(rules, 'requireJavaVersion', 'version')), properties), 'pom.xml:maven-enforcer-plugin/requireJavaVersion');
  }

  v.setTool('maven', resolveProperties(asString(dig(project, 'prerequisites', 'maven')), properties), 'pom.xml:prerequisites/maven');
  for (const rules of enforcerRules) {
    v.setTool(
      'maven',
      resolveProperties(asString(dig(rules, 'requireMavenVersion', 'version')), properties),
      'pom.xml:maven-enforcer-plugin/requireMavenVersion',
    );
  }
}

/** Expands `${name}` from the POM's own <properties>; unresolvable references stay as written. */
function resolveProperties(value: string | undefined, properties: JsonObject, depth = 0): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (depth > 5 || !value.includes('${')) return value;
  const expanded = value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => asString(properties[name]) ?? whole);
  return expanded === value ? value : resolveProperties(expanded, properties, depth + 1);
}

const VERSION_VALUE = String.raw`(?:JavaVersion\.(?:VERSION_(\d+(?:_\d+)?)|toVersion\(\s*["']?([\d.]+)["']?\s*\))|["']?(\d+(?:\.\d+)?)["']?)`;

const GRADLE_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['toolchain.languageVersion', /\blanguageVersion\s*(?:=|\.set\s*\(|\s)\s*JavaLanguageVersion\.of\(\s*["']?(\d+)["']?\s*\)/],
  ['jvmToolchain', /\bjvmToolchain\s*\(\s*(\d+)\s*\)/],
  ['sourceCompatibility', new RegExp(String.raw`\bsourceCompatibility\s*(?:=|\.set\s*\(|\s)\s*${VERSION_VALUE}`)],
  ['targetCompatibility', new RegExp(String.raw`\btargetCompatibility\s*(?:=|\.set\s*\(|\s)\s*${VERSION_VALUE}`)],
  [
    'jvmTarget',
    /\bjvmTarget\s*(?:=|\.set\s*\()\s*(?:JavaVersion\.VERSION_(\d+(?:_\d+)?)|JvmTarget\.JVM_(\d+(?:_\d+)?)|["'](\d+(?:\.\d+)?)["'])/,
  ],
];

function readGradleScript(script: string, file: string, v: Versions): void {
  for (const [key, pattern] of GRADLE_PATTERNS) {
    const match = pattern.exec(script);
    const raw = match?.slice(1).find((group) => group !== undefined);
    v.addJava(raw?.replace(/_/g, '.'), `${file}:${key}`);
  }
}
