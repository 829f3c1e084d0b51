import { afterAll, describe, expect, it } from 'vitest';
import { normaliseJavaVersion } from './detect-java-versions.js';
import { GitFixtures } from './git-fixture.js';
import type { RepoFacts } from './repo-facts.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

const pythonFacts = (f: RepoFacts) => ({
  python_version_spec: f.python_version_spec,
  python_version_specs: f.python_version_specs,
  python_version_sources: f.python_version_sources,
});

const javaFacts = (f: RepoFacts) => ({
  java_version: f.java_version,
  java_versions: f.java_versions,
  java_version_sources: f.java_version_sources,
  gradle_version: f.gradle_version,
  gradle_version_source: f.gradle_version_source,
  maven_version: f.maven_version,
  maven_version_source: f.maven_version_source,
});

const NO_TOOLS = { gradle_version: null, gradle_version_source: null, maven_version: null, maven_version_source: null };

const pom = (body: string): string =>
  `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;

describe('python version requirements', () => {
  it.each([
    ['[project] requires-python', { 'pyproject.toml': '[project]\nname = "d"\nrequires-python = ">=3.9"\n' }, '>=3.9', 'pyproject.toml:project.requires-python'],
    [
      'Poetry python dependency',
      { 'pyproject.toml': '[tool.poetry]\nname = "d"\n[tool.poetry.dependencies]\npython = "^3.10"\n' },
      '^3.10',
      'pyproject.toml:tool.poetry.dependencies.python',
    ],
    [
      'Poetry python dependency, long form',
      { 'pyproject.toml': '[tool.poetry]\nname = "d"\n[tool.poetry.dependencies]\npython = { version = ">=3.8,<4" }\n' },
      '>=3.8,<4',
      'pyproject.toml:tool.poetry.dependencies.python',
    ],
    ['setup.cfg python_requires', { 'setup.cfg': '[metadata]\nname = d\n[options]\npython_requires = >=3.7\n' }, '>=3.7', 'setup.cfg:options.python_requires'],
    [
      'setup.py python_requires literal',
      { 'setup.py': 'from setuptools import setup\nsetup(\n    name="d",\n    python_requires=\'>=3.6, <4\',\n)\n' },
      '>=3.6, <4',
      'setup.py:python_requires',
    ],
    ['conda environment python pin', { 'environment.yml': 'dependencies:\n  - python-dateutil\n  - python=3.10\n  - pip:\n    - x\n' }, '=3.10', 'environment.yml:dependencies.python'],
    ['.python-version', { '.python-version': '# pyenv\n3.11.4\n' }, '3.11.4', '.python-version'],
  ])('%s', async (_label, files, spec, source) => {
    const facts = await fixtures.inspect(files);
    expect(pythonFacts(facts)).toEqual({ python_version_spec: spec, python_version_specs: [spec], python_version_sources: [source] });
    expect(facts.findings).toEqual([]);
  });

  it('records every source, declared constraints before the local pin', async () => {
    const facts = await fixtures.inspect({
      '.python-version': '3.12.1\n',
      'setup.cfg': '[options]\npython_requires = >=3.8\n',
      'pyproject.toml': '[project]\nname = "d"\nrequires-python = ">=3.9"\n',
    });
    expect(pythonFacts(facts)).toEqual({
      python_version_spec: '>=3.9',
      python_version_specs: ['>=3.9', '>=3.8', '3.12.1'],
      python_version_sources: ['pyproject.toml:project.requires-python', 'setup.cfg:options.python_requires', '.python-version'],
    });
  });

  it('does not evaluate a computed python_requires in setup.py', async () => {
    const facts = await fixtures.inspect({ 'setup.py': 'from setuptools import setup\nPY = ">=3.8"\nsetup(python_requires=PY)\n' });
    expect(facts.python_version_spec).toBeNull();
    expect(facts.findings).toEqual(['setup.py: python_requires is not a string literal; not evaluated']);
    // Informational: the file itself is fine.
    expect(facts.malformed_files).toEqual([]);
  });
});

describe('java, maven and gradle version requirements', () => {
  it('maven.compiler.source property ("1.8" → "8") and prerequisites/maven', async () => {
    const facts = await fixtures.inspect({
      'pom.xml': pom(
        '  <prerequisites><maven>3.6.3</maven></prerequisites>\n  <properties>\n    <maven.compiler.source>1.8</maven.compiler.source>\n    <maven.compiler.target>1.8</maven.compiler.target>\n  </properties>',
      ),
    });
    expect(javaFacts(facts)).toEqual({
      ...NO_TOOLS,
      java_version: '8',
      java_versions: ['8', '8'],
      java_version_sources: ['pom.xml:properties/maven.compiler.source', 'pom.xml:properties/maven.compiler.target'],
      maven_version: '3.6.3',
      maven_version_source: 'pom.xml:prerequisites/maven',
    });
  });

  it('maven.compiler.release property', async () => {
    const facts = await fixtures.inspect({ 'pom.xml': pom('  <properties><maven.compiler.release>17</maven.compiler.release></properties>') });
    expect(javaFacts(facts)).toEqual({ ...NO_TOOLS, java_version: '17', java_versions: ['17'], java_version_sources: ['pom.xml:properties/maven.compiler.release'] });
  });

  it('maven-compiler-plugin configuration, with ${property} references resolved', async () => {
    const facts = await fixtures.inspect({
      'pom.xml': pom(
        '  <properties><java.version>11</java.version></properties>\n  <build><plugins><plugin>\n    <groupId>org.apache.maven.plugins</groupId>\n    <artifactId>maven-compiler-plugin</artifactId>\n    <configuration><source>${java.version}</source><target>${java.version}</target></configuration>\n  </plugin></plugins></build>',
      ),
    });
    expect(javaFacts(facts)).toEqual({
      ...NO_TOOLS,
      java_version: '11',
      java_versions: ['11', '11', '11'],
      java_version_sources: ['pom.xml:maven-compiler-plugin/source', 'pom.xml:maven-compiler-plugin/target', 'pom.xml:properties/java.version'],
    });
  });

  it('maven-compiler-plugin release in pluginManagement', async () => {
    const facts = await fixtures.inspect({
      'pom.xml': pom(
        '  <build><pluginManagement><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><configuration><release>21</release></configuration></plugin></plugins></pluginManagement></build>',
      ),
    });
    expect(facts.java_version_sources).toEqual(['pom.xml:maven-compiler-plugin/release']);
    expect(facts.java_version).toBe('21');
  });

  it('enforcer requireJavaVersion and requireMavenVersion inside an execution', async () => {
    const facts = await fixtures.inspect({
      'pom.xml': pom(
        '  <build><plugins><plugin><artifactId>maven-enforcer-plugin</artifactId><executions><execution><id>enforce</id><goals><goal>enforce</goal></goals>\n' +
          '    <configuration><rules><requireJavaVersion><version>[1.8,)</version></requireJavaVersion><requireMavenVersion><version>[3.8.1,)</version></requireMavenVersion></rules></configuration>\n' +
          '  </execution></executions></plugin></plugins></build>',
      ),
    });
    expect(javaFacts(facts)).toEqual({
      ...NO_TOOLS,
      java_version: '8',
      java_versions: ['8'],
      java_version_sources: ['pom.xml:maven-enforcer-plugin/requireJavaVersion'],
      maven_version: '[3.8.1,)',
      maven_version_source: 'pom.xml:maven-enforcer-plugin/requireMavenVersion',
    });
  });

  it('Groovy sourceCompatibility/targetCompatibility and the wrapper distributionUrl (-bin)', async () => {
    const facts = await fixtures.inspect({
      'build.gradle': "apply plugin: 'java'\n// sourceCompatibility = 1.6\nsourceCompatibility = 1.8\ntargetCompatibility = '1.8'\n",
      'gradle/wrapper/gradle-wrapper.properties': 'distributionBase=GRADLE_USER_HOME\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-7.6.1-bin.zip\n',
    });
    expect(javaFacts(facts)).toEqual({
      ...NO_TOOLS,
      java_version: '8',
      java_versions: ['8', '8'],
      java_version_sources: ['build.gradle:sourceCompatibility', 'build.gradle:targetCompatibility'],
      gradle_version: '7.6.1',
      gradle_version_source: 'gradle/wrapper/gradle-wrapper.properties:distributionUrl',
    });
  });

  it('Kotlin DSL java.sourceCompatibility = JavaVersion.VERSION_X and an -all wrapper', async () => {
    const facts = await fixtures.inspect({
      'build.gradle.kts': 'plugins { java }\njava {\n    sourceCompatibility = JavaVersion.VERSION_11\n    targetCompatibility = JavaVersion.VERSION_1_8\n}\n',
      'gradle/wrapper/gradle-wrapper.properties': 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-all.zip\n',
    });
    expect(javaFacts(facts)).toEqual({
      ...NO_TOOLS,
      java_version: '11',
      java_versions: ['11', '8'],
      java_version_sources: ['build.gradle.kts:sourceCompatibility', 'build.gradle.kts:targetCompatibility'],
      gradle_version: '8.5',
      gradle_version_source: 'gradle/wrapper/gradle-wrapper.properties:distributionUrl',
    });
  });

  it('toolchain languageVersion.set(JavaLanguageVersion.of(N)) comes first', async () => {
    const facts = await fixtures.inspect({
      'build.gradle.kts':
        'java {\n    sourceCompatibility = JavaVersion.VERSION_17\n    toolchain {\n        languageVersion.set(JavaLanguageVersion.of(21))\n    }\n}\n',
    });
    expect(facts.java_versions).toEqual(['21', '17']);
    expect(facts.java_version_sources).toEqual(['build.gradle.kts:toolchain.languageVersion', 'build.gradle.kts:sourceCompatibility']);
  });

  it('Groovy toolchain languageVersion = JavaLanguageVersion.of(N) and Kotlin jvmToolchain(N)', async () => {
    const groovy = await fixtures.inspect({ 'build.gradle': 'java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\n' });
    expect([groovy.java_version, groovy.java_version_sources]).toEqual(['17', ['build.gradle:toolchain.languageVersion']]);
    const kotlin = await fixtures.inspect({ 'build.gradle.kts': 'kotlin {\n    jvmToolchain(11)\n}\n' });
    expect([kotlin.java_version, kotlin.java_version_sources]).toEqual(['11', ['build.gradle.kts:jvmToolchain']]);
  });

  it('.java-version', async () => {
    const facts = await fixtures.inspect({ '.java-version': '1.8\n' });
    expect(javaFacts(facts)).toEqual({ ...NO_TOOLS, java_version: '8', java_versions: ['8'], java_version_sources: ['.java-version'] });
  });

  it('.sdkmanrc gives java, maven and gradle', async () => {
    const facts = await fixtures.inspect({ '.sdkmanrc': '# sdk env\njava=17.0.9-tem\nmaven=3.9.6\ngradle=8.4\n' });
    expect(javaFacts(facts)).toEqual({
      java_version: '17',
      java_versions: ['17'],
      java_version_sources: ['.sdkmanrc:java'],
      maven_version: '3.9.6',
      maven_version_source: '.sdkmanrc:maven',
      gradle_version: '8.4',
      gradle_version_source: '.sdkmanrc:gradle',
    });
  });

  it('maven wrapper distributionUrl', async () => {
    const facts = await fixtures.inspect({
      '.mvn/wrapper/maven-wrapper.properties': 'distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.6/apache-maven-3.9.6-bin.zip\n',
    });
    expect([facts.maven_version, facts.maven_version_source]).toEqual(['3.9.6', '.mvn/wrapper/maven-wrapper.properties:distributionUrl']);
  });

  it('normalises Java version spellings to a major version', () => {
    const cases: Array<[string, string | undefined]> = [
      ['1.8', '8'],
      ['8', '8'],
      ['17', '17'],
      ['11.0.2', '11'],
      ['[1.8,)', '8'],
      ['[17,22)', '17'],
      ['VERSION_1_7', '7'],
      ['JavaVersion.VERSION_21', '21'],
      ['21.0.1-tem', '21'],
      ['${java.version}', undefined],
    ];
    for (const [raw, major] of cases) expect(normaliseJavaVersion(raw), raw).toBe(major);
  });
});
