#!/usr/bin/env python3
"""What the schemas cannot see: the rules deploy/README.md promises of the manifests.

Usage: policy.py k8s RENDERED.yaml...   (the output of `kubectl kustomize`)
       policy.py compose deploy/compose.yaml
       policy.py compose-schema SCHEMA.json deploy/compose.yaml   (the Compose Specification)

Prints each broken rule and exits 1 if there is any. Run by deploy/check.sh with the tools' venv
(PyYAML).
"""

import re
import sys

import yaml

DRAIN_BUDGET_S = 20  # the server's drain on SIGTERM (design contract)
MIN_NATS = (2, 11)  # per-message TTLs
POSTGRES_MAJOR = 15  # what the accounts' store is tested against (scripts/postgres.sh)
problems = []


def fail(where, msg):
    problems.append(f"{where}: {msg}")


def nats_version_ok(image):
    m = re.match(r"^nats:(\d+)\.(\d+)\.\d+-alpine$", image or "")
    return bool(m) and (int(m[1]), int(m[2])) >= MIN_NATS


def origin_host_ok(origin):
    """A public origin whose host is a name: WebAuthn binds passkeys to a host name, never an IP."""
    m = re.match(r"^https?://([^/:\[\]]+|\[[^\]]*\])(:\d+)?$", origin or "")
    return bool(m) and not re.match(r"^[\d.]+$|^\[", m[1])


def check_k8s(paths):
    docs = [d for p in paths for d in yaml.safe_load_all(open(p)) if d]
    workloads = [d for d in docs if d["kind"] in ("Deployment", "StatefulSet")]
    pdbs = [d for d in docs if d["kind"] == "PodDisruptionBudget"]
    hpas = [d for d in docs if d["kind"] == "HorizontalPodAutoscaler"]
    if not any(d["metadata"]["name"] == "burraco-server" for d in workloads):
        fail("manifests", "no burraco-server workload")
    for d in docs:
        where = f'{d["kind"]}/{d["metadata"]["name"]}'
        labels = d["metadata"].get("labels", {})
        if d["kind"] != "Namespace":
            for key in ("app.kubernetes.io/name", "app.kubernetes.io/part-of"):
                if key not in labels:
                    fail(where, f"label {key} missing")
    for w in workloads:
        where = f'{w["kind"]}/{w["metadata"]["name"]}'
        pod = w["spec"]["template"]["spec"]
        psc = pod.get("securityContext", {})
        if psc.get("runAsNonRoot") is not True:
            fail(where, "pod securityContext.runAsNonRoot is not true")
        if pod.get("automountServiceAccountToken") is not False:
            fail(where, "automountServiceAccountToken is not false")
        selector = w["spec"]["selector"]["matchLabels"]
        if not any(p["spec"]["selector"].get("matchLabels") == selector for p in pdbs):
            fail(where, "no PodDisruptionBudget selects it")
        for c in pod["containers"]:
            cw = f"{where} container {c['name']}"
            sc = c.get("securityContext", {})
            seccomp = sc.get("seccompProfile") or psc.get("seccompProfile") or {}
            if seccomp.get("type") != "RuntimeDefault":
                fail(cw, "seccompProfile is not RuntimeDefault")
            if sc.get("readOnlyRootFilesystem") is not True:
                fail(cw, "readOnlyRootFilesystem is not true")
            if sc.get("allowPrivilegeEscalation") is not False:
                fail(cw, "allowPrivilegeEscalation is not false")
            if "ALL" not in sc.get("capabilities", {}).get("drop", []):
                fail(cw, "capabilities do not drop ALL")
            res = c.get("resources", {})
            for key in ("requests.cpu", "requests.memory", "limits.memory"):
                a, b = key.split(".")
                if b not in res.get(a, {}):
                    fail(cw, f"resources.{key} missing")
            for probe in ("livenessProbe", "readinessProbe"):
                if probe not in c:
                    fail(cw, f"{probe} missing")
            image = c.get("image", "")
            if ":" not in image.rsplit("/", 1)[-1] or image.endswith(":latest"):
                fail(cw, f"image {image!r} has no pinned tag")
            if c["name"] == "nats" and not nats_version_ok(image):
                fail(cw, f"image {image!r} is not nats:X.Y.Z-alpine with X.Y >= 2.11")
        if w["metadata"]["name"] == "burraco-server":
            check_server(where, pod, hpas, docs)


def check_server(where, pod, hpas, docs):
    c = next(c for c in pod["containers"] if c["name"] == "server")
    if c.get("livenessProbe", {}).get("httpGet", {}).get("path") != "/healthz":
        fail(where, "liveness is not GET /healthz")
    if c.get("readinessProbe", {}).get("httpGet", {}).get("path") != "/healthz/ready":
        fail(where, "readiness is not GET /healthz/ready")
    sleep = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds")
    if not sleep:
        fail(where, "no preStop sleep")
    grace = pod.get("terminationGracePeriodSeconds", 30)
    if grace < (sleep or 0) + DRAIN_BUDGET_S:
        fail(where, f"terminationGracePeriodSeconds {grace} < preStop {sleep} + drain {DRAIN_BUDGET_S}")
    node = next((e for e in c.get("env", []) if e["name"] == "BURRACO_NODE"), None)
    if (node or {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") != "metadata.name":
        fail(where, "BURRACO_NODE is not the pod name (downward API)")
    if not c.get("envFrom"):
        fail(where, "settings do not come from a ConfigMap (envFrom)")
    db = next((e for e in c.get("env", []) if e["name"] == "BURRACO_DATABASE_URL"), None)
    if "secretKeyRef" not in (db or {}).get("valueFrom", {}):
        fail(where, "BURRACO_DATABASE_URL does not come from a Secret (secretKeyRef)")
    config_names = [e["configMapRef"]["name"] for e in c.get("envFrom", []) if "configMapRef" in e]
    settings = {}
    for d in docs:
        if d["kind"] == "ConfigMap" and d["metadata"]["name"] in config_names:
            settings.update(d.get("data", {}))
    if not origin_host_ok(settings.get("BURRACO_PUBLIC_ORIGIN")):
        fail(where, "BURRACO_PUBLIC_ORIGIN is not set in its ConfigMap to an origin with a host name")
    if "BURRACO_DATABASE_URL" in settings:
        fail(where, "BURRACO_DATABASE_URL (it holds a password) is in a ConfigMap, not a Secret")
    targets = [h for h in hpas if h["spec"]["scaleTargetRef"]["name"] == "burraco-server"]
    if not targets:
        fail(where, "no HorizontalPodAutoscaler targets it")
    for h in targets:
        names = [m["pods"]["metric"]["name"] for m in h["spec"]["metrics"] if m["type"] == "Pods"]
        if "burraco_connections" not in names and "burraco_tables" not in names:
            fail(where, "the HPA scales on neither burraco_connections nor burraco_tables")


def read_env_file(path):
    env = {}
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env


def check_compose(path):
    import os
    import urllib.parse

    doc = yaml.safe_load(open(path))
    services = doc["services"]
    pg = services.get("postgres")
    if not pg:
        fail(path, "no postgres service (the accounts' database)")
    else:
        m = re.match(r"^postgres:(\d+)\.\d+-alpine$", pg.get("image", ""))
        if not m or int(m[1]) != POSTGRES_MAJOR:
            fail(f"{path} postgres", f"image {pg.get('image')!r} is not postgres:{POSTGRES_MAJOR}.N-alpine")
        if not any(str(v).endswith(":/var/lib/postgresql/data") for v in pg.get("volumes", [])):
            fail(f"{path} postgres", "no volume at /var/lib/postgresql/data")
        if "POSTGRES_PASSWORD" in pg.get("environment", {}):
            fail(f"{path} postgres", "the password is written in compose.yaml, not an env file")
    # The env file the nodes and the database share (its default, as compose resolves it).
    env_files = {re.sub(r"^\$\{BURRACO_POSTGRES_ENV:-(.*)\}$", r"\1", f)
                 for s in services.values() for f in s.get("env_file", [])}
    for f in env_files:
        env = read_env_file(os.path.join(os.path.dirname(path), f))
        url = urllib.parse.urlsplit(env.get("BURRACO_DATABASE_URL", ""))
        if url.scheme not in ("postgres", "postgresql") or url.hostname != "postgres":
            fail(f"{path} {f}", "BURRACO_DATABASE_URL is not a postgres:// URL of the postgres service")
        if urllib.parse.unquote(url.password or "") != env.get("POSTGRES_PASSWORD"):
            fail(f"{path} {f}", "the URL's password is not POSTGRES_PASSWORD")
        if (url.username, url.path.lstrip("/")) != (env.get("POSTGRES_USER"), env.get("POSTGRES_DB")):
            fail(f"{path} {f}", "the URL's user and database are not POSTGRES_USER and POSTGRES_DB")
    nats = sorted(n for n in services if n.startswith("nats-"))
    nodes = sorted(n for n in services if n.startswith("node-"))
    if len(nats) != 3 or len(nodes) != 3:
        fail(path, f"expected 3 NATS servers and 3 nodes, found {nats} and {nodes}")
    urls = ",".join(f"nats://{n}:4222" for n in nats)
    seen = set()
    for name, s in services.items():
        if "healthcheck" not in s:
            fail(f"{path} {name}", "no healthcheck")
        if name in nats:
            if not nats_version_ok(s.get("image")):
                fail(f"{path} {name}", f"image {s.get('image')!r} is not nats >= 2.11, pinned")
            if not any(str(v).endswith(":/data") for v in s.get("volumes", [])):
                fail(f"{path} {name}", "no volume at /data for JetStream")
        if name in nodes:
            env = s.get("environment", {})
            if env.get("BURRACO_NATS") != urls:
                fail(f"{path} {name}", f"BURRACO_NATS is not {urls}")
            if env.get("BURRACO_NODE") in seen or not env.get("BURRACO_NODE"):
                fail(f"{path} {name}", "BURRACO_NODE missing or not unique")
            seen.add(env.get("BURRACO_NODE"))
            if not s.get("env_file") or s.get("env_file") != (pg or {}).get("env_file"):
                fail(f"{path} {name}", "does not read the database's env file (BURRACO_DATABASE_URL)")
            if s.get("depends_on", {}).get("postgres", {}).get("condition") != "service_healthy":
                fail(f"{path} {name}", "does not wait for postgres to be healthy")
            if not origin_host_ok(env.get("BURRACO_PUBLIC_ORIGIN")):
                fail(f"{path} {name}", "BURRACO_PUBLIC_ORIGIN is not an origin with a host name")
            grace = int(str(s.get("stop_grace_period", "10s")).rstrip("s"))
            if grace < DRAIN_BUDGET_S:
                fail(f"{path} {name}", f"stop_grace_period {grace}s < drain {DRAIN_BUDGET_S}s")


def check_compose_schema(schema_path, paths):
    import json

    import jsonschema

    schema = json.load(open(schema_path))
    validator = jsonschema.Draft7Validator(schema)
    for p in paths:
        for e in validator.iter_errors(yaml.safe_load(open(p))):
            where = "/".join(str(x) for x in e.absolute_path) or "(top)"
            fail(f"{p} {where}", e.message)


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    if kind == "k8s":
        check_k8s(paths)
    elif kind == "compose":
        for p in paths:
            check_compose(p)
    elif kind == "compose-schema":
        check_compose_schema(paths[0], paths[1:])
        paths = paths[1:]
    else:
        sys.exit(f"unknown kind {kind!r}")
    for p in problems:
        print(f"policy: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"policy: {kind}: ok ({', '.join(paths)})")


if __name__ == "__main__":
    main()
