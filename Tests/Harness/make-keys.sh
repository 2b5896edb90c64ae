#!/usr/bin/env bash
# Makes the store API keys the demo and the benchmarks configure the jobs with, once, as files (never argv):
# an App Store Connect key (P-256, PKCS#8 .p8) and a Google service account (RSA key in its JSON), with the
# public halves the store simulator checks them against. Usage: make-keys.sh <folder> <project name>
set -euo pipefail
keys=$1
project=$2
mkdir -p "$keys"
# The jobs refuse a key file group or others can read: keys are created, and kept, mode 0600.
umask 077
[ -f "$keys/apple.p8" ] && { chmod 600 "$keys"/*; exit 0; }
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$keys/apple.p8"
openssl pkey -in "$keys/apple.p8" -pubout -out "$keys/apple-public.pem"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$keys/google.pem" 2>/dev/null
openssl pkey -in "$keys/google.pem" -pubout -out "$keys/google-public.pem"
pem_escaped=$(awk 'BEGIN { ORS = "\\n" } { print }' "$keys/google.pem")
printf '{"type":"service_account","project_id":"%s","private_key_id":"%s-key","private_key":"%s","client_email":"pipeline@%s.iam.gserviceaccount.com","token_uri":"http://127.0.0.1/token"}\n' \
  "$project" "$project" "$pem_escaped" "$project" >"$keys/google-service-account.json"
chmod 600 "$keys"/*
