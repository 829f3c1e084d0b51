# Every target calls the envforge CLI; CONFIG and DATASET pick the run.
CONFIG ?= configs/demo.toml
DATASET ?=
ARGS ?=
ENVFORGE = node bin/envforge.js --config $(CONFIG) $(if $(DATASET),--dataset $(DATASET))
STAGES = search clone inspect baseline readme inject validate review tiers conflicts locate reproduce evaluate

.PHONY: install build demo test status bench clean-demo engine base-image gc export report trajectories $(STAGES) evaluate rollout

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund

install: node_modules/.package-lock.json

dist/.built: node_modules/.package-lock.json $(shell find pipeline stages -name '*.ts' ! -name '*.test.ts') tsconfig.json tsconfig.build.json
	npm run build
	touch $@

build: dist/.built

$(STAGES): build
	$(ENVFORGE) run $@ $(ARGS)

# A Docker engine (installed from Debian's packages when missing) and the registry-free base image.
engine:
	sandboxes/ensure-engine.sh

base-image: engine
	sandboxes/bootstrap-base.sh

baseline: base-image

validate: base-image

reproduce: base-image

# Trajectories for training (not in STAGES: rollout needs a model). `make evaluate` scores the
# scripts JSONL of [evaluate] scripts; `make rollout CONFIG=configs/default.toml` runs the agent on
# [rollout] instances (an export folder); `make trajectories` writes fine-tuning JSONL (ARGS="--pass").
evaluate rollout: build base-image
	$(ENVFORGE) run $@ $(ARGS)

trajectories: build
	$(ENVFORGE) trajectories $(ARGS)

gc: build
	$(ENVFORGE) gc

status: build
	$(ENVFORGE) status

# Each benchmark in its published format + Parquet + dataset card (data/<dataset>/export/; ARGS="--to DIR").
export: build
	$(ENVFORGE) export $(ARGS)

# report.html + report.md (data/<dataset>/report/; ARGS="--out DIR").
report: build
	$(ENVFORGE) report $(ARGS)

# The main job, offline on the committed samples: every stage that exists, then the funnel.
demo: build base-image
	$(ENVFORGE) demo-remotes
	$(ENVFORGE) demo-conflict-remotes
	$(ENVFORGE) run $(STAGES) $(ARGS)
	$(ENVFORGE) status
	$(ENVFORGE) review export
	$(ENVFORGE) export
	$(ENVFORGE) report

clean-demo:
	rm -rf data/demo

# Docker-backed tests need the engine and the base image: they fail, never skip, without them.
# Also writes vitest's JSON report, which .ci/run reads for its closing count.
test: install base-image
	npx vitest run --reporter=default --reporter=json --outputFile.json=.vitest-results.json

bench: install
	npm run bench
