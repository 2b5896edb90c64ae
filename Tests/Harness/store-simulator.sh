# Sourced by demo.sh and Benchmarks/run.sh: starts the store simulator on a free loopback port over a world's truth
# folder and exports the environment the jobs read (store URLs, key files made by make-keys.sh, the trusted root).
#
# start_store_simulator <bin folder> <truth folder> <keys folder> <name> <state folder> <log file> [simulator flags…]
# sets $simulator_pid and $port; <name> is make-keys.sh's project name (key id NAMEKEY, issuer name-issuer).
start_store_simulator() {
  local bin=$1 truth=$2 keys=$3 name=$4 state=$5 log=$6
  shift 6
  local key_id
  key_id="$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')KEY"
  rm -f "$state/simulator.json"
  "$bin/store-simulator" --truth "$truth" --port 0 --root-cert-out "$state/simulator-root.pem" \
    --apple-key-public "$keys/apple-public.pem" --apple-key-id "$key_id" --apple-issuer-id "$name-issuer" \
    --google-service-account-public "$keys/google-public.pem" --google-client-email "pipeline@$name.iam.gserviceaccount.com" \
    "$@" >"$state/simulator.json" 2>>"$log" &
  simulator_pid=$!
  # Loading a large truth takes a while (minutes on a loaded machine); wait as long as the simulator is alive,
  # up to 15 minutes.
  for _ in $(seq 9000); do
    [ -s "$state/simulator.json" ] && break
    kill -0 "$simulator_pid" 2>/dev/null || break
    sleep 0.1
  done
  port=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$state/simulator.json")
  [ -n "$port" ] || { echo "the store simulator did not start; see $log" >&2; return 1; }
  export APPLE_BUNDLE_ID=$(sed -n 's/.*"bundleId":"\([^"]*\)".*/\1/p' "$truth/apple.json")
  export APPLE_APP_APPLE_ID=$(sed -n 's/.*"appAppleId":\([0-9]*\).*/\1/p' "$truth/apple.json")
  # A production app also has sandbox purchases (TestFlight, App Review); the simulator serves Apple's sandbox host
  # under /sandbox (without it the client would try the real sandbox host).
  export APPLE_ENVIRONMENT=Production APPLE_API_BASE_URL="http://127.0.0.1:$port" APPLE_SANDBOX_API_BASE_URL="http://127.0.0.1:$port/sandbox"
  export APPLE_KEY_ID="$key_id" APPLE_ISSUER_ID="$name-issuer" APPLE_PRIVATE_KEY_FILE="$keys/apple.p8"
  export APPLE_ROOT_CERT_FILES="$state/simulator-root.pem"
  export GOOGLE_PACKAGE_NAME=$(sed -n 's/.*"packageName":"\([^"]*\)".*/\1/p' "$truth/google.json")
  export GOOGLE_SERVICE_ACCOUNT_FILE="$keys/google-service-account.json"
  export GOOGLE_API_BASE_URL="http://127.0.0.1:$port" GOOGLE_TOKEN_URL="http://127.0.0.1:$port/token"
}
