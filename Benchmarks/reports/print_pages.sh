#!/usr/bin/env bash
# Prints a build-reports workbook the way a person would (LibreOffice headless to PDF, the sheets' own print setup)
# and counts the printed pages per sheet from the footer every sheet carries ("<sheet> ... Page N of M").
# Usage: Benchmarks/reports/print_pages.sh path/to/reports.xlsx
# Needs: libreoffice-calc-nogui and poppler-utils (apt-get install -y --no-install-recommends ...).
set -euo pipefail
workbook=${1:?usage: $0 reports.xlsx}
[ -f "$workbook" ] || { echo "print_pages: no such file: $workbook" >&2; exit 1; }
for tool in soffice pdftotext pdfinfo; do
  command -v "$tool" >/dev/null || { echo "print_pages: $tool is missing (libreoffice-calc-nogui, poppler-utils)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
soffice --headless -env:UserInstallation=file://"$work"/profile --convert-to pdf --outdir "$work" "$workbook" >"$work/soffice.log" 2>&1
pdf="$work/$(basename "${workbook%.*}").pdf"
[ -s "$pdf" ] || { echo "print_pages: LibreOffice wrote no PDF (log: $(cat "$work/soffice.log"))" >&2; exit 1; }
echo "workbook $workbook: $(stat -c %s "$workbook") bytes, $(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}') printed pages"
pdftotext -layout "$pdf" "$work/pages.txt"
python3 - "$work/pages.txt" <<'PY'
import collections, re, sys
pages = open(sys.argv[1], encoding="utf-8").read().split("\f")
counts = collections.OrderedDict()
for page in pages:
    if not page.strip():
        continue
    found = re.search(r"^\s*(\S.*?)\s{3,}Page \d+ of \d+\s*$", page, re.M)
    name = found.group(1) if found else "(no footer)"
    counts[name] = counts.get(name, 0) + 1
for name, count in counts.items():
    print(f"  {name:<24} {count:>5} pages")
PY
