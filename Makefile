# Set-up, test and demo for the IAP reconciliation pipeline. Every target installs what is missing.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# What the jobs need to build and run (make deps, make install).
DEB_PACKAGES := postgresql libpq-dev libcurl4-openssl-dev libxlsxwriter-dev libssl-dev libarchive-dev pkg-config openssl
# What only the tests add: promtool, to check the shipped alert rules and a real drift-counts output (Debian ships it
# in the prometheus package, which a job host does not need).
TEST_DEB_PACKAGES := prometheus chromium libreoffice-calc-nogui poppler-utils
PG := Tests/Harness/pg-cluster.sh
# The embedded cluster's connection variables (unix socket under .local/pg, no TCP).
PGENV = eval "$$($(PG) env)"
SWIFT_BUILD_FLAGS ?=
# make install: where the jobs go (<PREFIX>/bin) and what they read at run time (<PREFIX>/share/iap-pipeline).
PREFIX ?= /opt/iap
SHARE_DIR = $(PREFIX)/share/iap-pipeline
JOBS := $(notdir $(wildcard Jobs/*))

.PHONY: help deps test-deps install-packages db-up db-down build release install install-files build-commit test demo bench clean

help:
	@echo "make demo    run the nightly pipeline on the embedded default and print what it did"
	@echo "make test    run the test suite against a private PostgreSQL"
	@echo "make deps    install missing Debian packages (apt-get)"
	@echo "make db-up / db-down   start / stop the private PostgreSQL under .local/pg"
	@echo "make release build the jobs for installing: optimised, the Swift runtime linked in (.build/release)"
	@echo "make install PREFIX=/opt/iap   release build, jobs to PREFIX/bin, migrations/report SQL/roles.sql/job grants to PREFIX/share/iap-pipeline"
	@echo "make bench   run the benchmarks and update Benchmarks/results.md"

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES) $(TEST_DEB_PACKAGES)"

install-packages:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

db-up: deps
	@$(PG) up

db-down:
	@$(PG) down

# The commit a build is made from, read by `--version` (JobKit's PipelineVersion): .build/BUILD_COMMIT in the build
# tree, <share>/BUILD_COMMIT once installed. "-dirty" when the working tree has uncommitted changes.
COMMIT = $$(git rev-parse HEAD 2>/dev/null || echo unknown)$$(git status --porcelain 2>/dev/null | grep -q . && echo -dirty)
build-commit:
	@mkdir -p .build && echo "$(COMMIT)" >.build/BUILD_COMMIT

build: deps build-commit
	swift build $(SWIFT_BUILD_FLAGS)

# As Benchmarks/release-flags.sh: what the benchmarks measure is what is installed.
release: deps build-commit
	swift build -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS)

# The release jobs and everything they read at run time; the jobs find <PREFIX>/share/iap-pipeline from their own
# location (/proc/self/exe/../../share/iap-pipeline), never from the working directory (JobKit's ShareDirectory).
install: release
	@$(MAKE) --no-print-directory install-files BIN_DIR="$$(swift build -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS) --show-bin-path)"

# The copy step of `install`, from the built jobs in BIN_DIR (the install test runs it on the test build's binaries).
install-files:
	@test -n "$(BIN_DIR)" || { echo "install-files: set BIN_DIR to the folder of the built jobs" >&2; exit 2; }
	@for job in $(JOBS); do test -x "$(BIN_DIR)/$$job" || { echo "install-files: $(BIN_DIR)/$$job is not built" >&2; exit 1; }; done
	install -d "$(PREFIX)/bin" "$(SHARE_DIR)/migrations" "$(SHARE_DIR)/reports" "$(SHARE_DIR)/postgres"
	install -m 0755 $(addprefix "$(BIN_DIR)"/,$(JOBS)) "$(PREFIX)/bin/"
	rm -f "$(SHARE_DIR)"/migrations/*.sql "$(SHARE_DIR)"/reports/*.sql
	install -m 0644 SQL/migrations/*.sql "$(SHARE_DIR)/migrations/"
	install -m 0644 Reports/*.sql "$(SHARE_DIR)/reports/"
	install -m 0644 SQL/job_role_grants.sql "$(SHARE_DIR)/"
	install -m 0644 deploy/postgres/roles.sql "$(SHARE_DIR)/postgres/"
	echo "$(COMMIT)" >"$(SHARE_DIR)/BUILD_COMMIT"
	@echo "installed $(words $(JOBS)) jobs into $(PREFIX)/bin, their SQL into $(SHARE_DIR) (commit $$(cat "$(SHARE_DIR)/BUILD_COMMIT"))"

test: test-deps db-up build-commit
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	@$(PGENV); swift test --skip-build $(SWIFT_BUILD_FLAGS)

demo: db-up build
	@Tests/Harness/demo.sh

bench: db-up
	@$(PGENV); Benchmarks/run.sh $(WHICH)

clean:
	rm -rf .build
