# Set-up, test and demo for the IAP reconciliation pipeline. Every target installs what is missing.
SHELL := /bin/bash
.DEFAULT_GOAL := help

DEB_PACKAGES := postgresql libpq-dev libcurl4-openssl-dev libxlsxwriter-dev libssl-dev libarchive-dev pkg-config openssl prometheus
PG := Tests/Harness/pg-cluster.sh
# The embedded cluster's connection variables (unix socket under .local/pg, no TCP).
PGENV = eval "$$($(PG) env)"
SWIFT_BUILD_FLAGS ?=

.PHONY: help deps db-up db-down build release test demo bench clean

help:
	@echo "make demo    run the nightly pipeline on the embedded default and print what it did"
	@echo "make test    run the test suite against a private PostgreSQL"
	@echo "make deps    install missing Debian packages (apt-get)"
	@echo "make db-up / db-down   start / stop the private PostgreSQL under .local/pg"
	@echo "make release build the jobs for installing: optimised, the Swift runtime linked in (.build/release)"
	@echo "make bench   run the benchmarks and update Benchmarks/results.md"

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

db-up: deps
	@$(PG) up

db-down:
	@$(PG) down

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# As Benchmarks/release-flags.sh: what the benchmarks measure is what is installed.
release: deps
	swift build -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS)

test: db-up
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	@$(PGENV); swift test --skip-build $(SWIFT_BUILD_FLAGS)

demo: db-up build
	@Tests/Harness/demo.sh

bench: db-up
	@$(PGENV); Benchmarks/run.sh $(WHICH)

clean:
	rm -rf .build
