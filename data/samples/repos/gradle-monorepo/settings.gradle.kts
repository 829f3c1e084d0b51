rootProject.name = "gradle-monorepo"
include(":app", ":lib")
