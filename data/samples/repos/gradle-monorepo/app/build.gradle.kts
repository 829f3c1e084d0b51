plugins { kotlin("jvm") }
dependencies { implementation(project(":lib")) }
