rootProject.name = "gradle-kotlin"
