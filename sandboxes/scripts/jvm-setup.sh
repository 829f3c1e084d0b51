#!/usr/bin/env bash
# EnvBench's deterministic JVM setup, reproduced from its description
# (../shared/reference/envbench.md): pick the build tool, read the Java version the build asks
# for, select an installed JDK for it (default 11), and the Maven/Gradle version where SDKMAN
# can install one. Builds are left to the metric. Sourced by the driver.

if [ -f pom.xml ]; then
  build_tool=maven
elif [ -f build.gradle ] || [ -f build.gradle.kts ]; then
  build_tool=gradle
else
  echo "envforge: no pom.xml or build.gradle(.kts) in the repository root" >&2
  exit 1
fi

pom_value() {
  xmlstarlet sel -t -v "$1" pom.xml 2>/dev/null | head -n1 | tr -d '[:space:]'
}

java_version=""
if [ "$build_tool" = maven ]; then
  java_version=$(pom_value "/*[local-name()='project']/*[local-name()='properties']/*[local-name()='maven.compiler.source']")
  [ -n "$java_version" ] || java_version=$(pom_value "//*[local-name()='plugin'][*[local-name()='artifactId']='maven-compiler-plugin']/*[local-name()='configuration']/*[local-name()='source']")
  [ -n "$java_version" ] || java_version=$(pom_value "//*[local-name()='plugin'][*[local-name()='artifactId']='maven-enforcer-plugin']//*[local-name()='requireJavaVersion']/*[local-name()='version']")
  maven_version=$(pom_value "/*[local-name()='project']/*[local-name()='prerequisites']/*[local-name()='maven']")
  [ -n "$maven_version" ] || maven_version=$(pom_value "//*[local-name()='requireMavenVersion']/*[local-name()='version']")
else
  for f in build.gradle build.gradle.kts; do
    [ -f "$f" ] || continue
    [ -n "$java_version" ] || java_version=$(sed -n -E "s/^[[:space:]]*sourceCompatibility[[:space:]]*=[[:space:]]*['\"]?([0-9.]+)['\"]?.*/\1/p" "$f" | head -n1)
    [ -n "$java_version" ] || java_version=$(sed -n -E 's/.*java\.sourceCompatibility[[:space:]]*=[[:space:]]*JavaVersion\.VERSION_([0-9_]+).*/\1/p' "$f" | head -n1 | tr '_' '.')
  done
  if [ -f gradle/wrapper/gradle-wrapper.properties ]; then
    gradle_version=$(sed -n -E 's/.*gradle-(.*)-bin\.zip.*/\1/p' gradle/wrapper/gradle-wrapper.properties | head -n1)
  fi
fi

# Version ranges like [17,) or 1.8 reduce to the major number; "1.x" means x.
java_version=$(echo "$java_version" | tr -d '[](),' | sed -E 's/^1\.([0-9]+).*/\1/; s/^([0-9]+).*/\1/')
[ -n "$java_version" ] || java_version=11

pick_jdk() {
  local want=$1 best="" v
  for home in /usr/lib/jvm/java-*-openjdk-* /root/.sdkman/candidates/java/*; do
    [ -x "$home/bin/javac" ] || continue
    v=$("$home/bin/javac" -version 2>&1 | sed -E 's/javac ([0-9]+)(\.[0-9]+)?.*/\1/; s/^1$/8/')
    if [ "$v" = "$want" ]; then echo "$home"; return; fi
    if [ "$v" -gt "$want" ] 2>/dev/null && { [ -z "$best" ] || [ "$v" -lt "${best%%:*}" ]; }; then best="$v:$home"; fi
  done
  echo "${best#*:}"
}
jdk=$(pick_jdk "$java_version")
if [ -n "$jdk" ]; then
  export JAVA_HOME="$jdk"
  export PATH="$JAVA_HOME/bin:$PATH"
fi
echo "envforge: build tool $build_tool, Java $java_version requested, using ${JAVA_HOME:-system JDK}"

if [ -s /root/.sdkman/bin/sdkman-init.sh ]; then
  source /root/.sdkman/bin/sdkman-init.sh
  [ -n "${maven_version:-}" ] && sdk install maven "$maven_version" </dev/null
  [ -n "${gradle_version:-}" ] && sdk install gradle "$gradle_version" </dev/null
fi
true
