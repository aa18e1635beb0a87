"""Runs calls of the official Python client of the hosted API (pytfe, unchanged) against the address in
TFE_ADDRESS with the token in TFE_TOKEN, and prints one JSON report on stdout: every call's outcome, the
values the client decoded, and the HTTP exchanges it made.

Usage: python compat.py SCENARIO, with the scenario's parameters as a JSON object in COMPAT_INPUT.
Scenarios are registered in SCENARIOS at the end of this file; a new area of the API adds its scenario
functions and one entry each (the Go program in ../gotfe has the same scenarios under the same names).

The script exits 0 whenever it could run the scenario, failed calls included: judging the report is the job
of tests/compat/publicClients.test.ts. It exits 2 on a usage error and 3 when the client cannot be made.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import httpx
import pytfe
from pytfe import TFEClient
from pytfe.errors import NotFound, TFEError
from pytfe.models import (
    NoCodeModuleCreateOptions,
    NoCodeModuleIncludeOpt,
    NoCodeModuleReadOptions,
    NoCodeModuleUpdateOptions,
    NoCodeVariableOption,
    NoCodeWorkspaceCreateOptions,
    NoCodeWorkspaceUpgradeOptions,
    NoCodeWorkspaceVariable,
    Project,
    ProjectAddTagBindingsOptions,
    ProjectCreateOptions,
    ProjectListOptions,
    ProjectUpdateOptions,
    TagBinding,
    WorkspaceListOptions,
    WorkspaceUpdateOptions,
)
from pytfe.models.variable import CategoryType
from pytfe.models.workspace import ExecutionMode

# The upgrade statuses a poll waits through (the local service's state machine).
IN_PROGRESS = {"pending", "fetching", "planning"}


def redacted(body: bytes) -> Any:
    """The body as JSON (its text when it is not JSON), with the value of every resource whose attributes
    say ``sensitive: true`` hidden, so the report never carries a secret the scenario sent."""
    if not body:
        return None
    try:
        parsed = json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            attributes = node.get("attributes")
            if isinstance(attributes, dict) and attributes.get("sensitive") is True and attributes.get("value") is not None:
                attributes["value"] = "<redacted>"
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(parsed)
    return parsed


class Runner:
    """Runs the calls of one scenario and collects the report."""

    def __init__(self, scenario: str, params: dict[str, Any]):
        # The client exactly as a user makes it: TFEClient() reads TFE_ADDRESS and TFE_TOKEN.
        self.client = TFEClient()
        self.params = params
        self.exchanges: list[dict[str, Any]] = []
        self.report: dict[str, Any] = {
            "client": "pytfe",
            "version": pytfe.__version__,
            "scenario": scenario,
            "calls": [],
            "output": {},
        }
        # Observation only: httpx event hooks on the client's own connection pool record each exchange; the
        # request and the answer reach pytfe unchanged. (pytfe has no public hook for this.)
        self.client._transport._sync.event_hooks = {"request": [self._on_request], "response": [self._on_response]}

    def _on_request(self, request: httpx.Request) -> None:
        self.exchanges.append(
            {
                "method": request.method,
                "url": str(request.url),
                "requestContentType": request.headers.get("content-type"),
                "requestBody": redacted(request.content),
            }
        )

    def _on_response(self, response: httpx.Response) -> None:
        response.read()
        exchange = self.exchanges[-1]
        exchange["status"] = response.status_code
        exchange["responseContentType"] = response.headers.get("content-type")
        exchange["responseBody"] = redacted(response.content)

    def call(self, name: str, needs: dict[str, Any] | None, fn: Callable[[], Any]) -> bool:
        """Runs fn as the call called name, unless one of needs is empty (then the call is reported
        skipped). fn answers the decoded values to report; an exception is the call's error."""
        call: dict[str, Any] = {"name": name, "ok": False, "exchanges": []}
        for label, value in (needs or {}).items():
            if not value:
                call["skipped"] = f"needs {label}, which an earlier call did not give"
                self.report["calls"].append(call)
                return False
        self.exchanges = []
        try:
            call["result"] = fn()
            call["ok"] = True
        except Exception as error:  # every failure of the client is a finding, reported as such
            call["error"] = f"{type(error).__name__}: {error}"
            call["errorKind"] = type(error).__name__
            call["traceback"] = traceback.format_exc(limit=6)
        call["exchanges"] = self.exchanges
        self.exchanges = []
        self.report["calls"].append(call)
        return call["ok"]

    def output(self, key: str, value: Any) -> None:
        """Records a value for the test (and for later scenarios)."""
        self.report["output"][key] = value


# ---------------------------------------------------------------------------------------------------------
# Decoded values, in the same shape as the Go program's


def enum_value(value: Any) -> Any:
    return getattr(value, "value", value)


def module_result(module: Any) -> dict[str, Any]:
    return {
        "id": module.id,
        "enabled": module.enabled,
        "versionPin": module.version_pin,
        "organization": getattr(module.organization, "id", None) or getattr(module.organization, "name", None),
        "registryModuleId": getattr(module.registry_module, "id", None),
        "variableOptions": [
            {"id": s.id, "variableName": s.variable_name, "variableType": s.variable_type, "options": s.options}
            for s in module.variable_options
        ],
    }


def workspace_result(workspace: Any) -> dict[str, Any]:
    return {
        "id": workspace.id,
        "name": workspace.name,
        "description": workspace.description,
        "source": enum_value(workspace.source),
        "sourceName": workspace.source_name,
        "sourceUrl": workspace.source_url,
        "sourceModuleId": workspace.source_module_id,
        "autoApply": workspace.auto_apply,
        "executionMode": enum_value(workspace.execution_mode),
        "noCodeUpgradeAvailable": workspace.no_code_upgrade_available,
        "projectId": getattr(workspace.project, "id", None),
        "organization": getattr(workspace.organization, "id", None) or getattr(workspace.organization, "name", None),
        "agentPoolId": getattr(workspace.agent_pool, "id", None),
        "varIds": [v.id for v in (workspace.variables or [])],
    }


def upgrade_result(upgrade: Any) -> dict[str, Any]:
    return {
        "id": upgrade.id,
        "status": upgrade.status,
        "planUrl": upgrade.plan_url,
        "message": upgrade.message,
        "workspaceId": getattr(upgrade.workspace, "id", None),
    }


def variables(items: list[dict[str, Any]]) -> list[NoCodeWorkspaceVariable]:
    return [
        NoCodeWorkspaceVariable(
            key=v["key"],
            value=v.get("value"),
            description=v.get("description"),
            category=CategoryType(v["category"]),
            hcl=v.get("hcl"),
            sensitive=v.get("sensitive"),
        )
        for v in items
    ]


def option_set(item: dict[str, Any], set_id: str | None = None) -> NoCodeVariableOption:
    return NoCodeVariableOption(
        id=set_id, variable_name=item["variableName"], variable_type=item["variableType"], options=item["options"]
    )


# ---------------------------------------------------------------------------------------------------------
# Scenario "nocode" (issue 5): the no-code calls, in the order a user drives them; parameters as the Go
# program's noCodePlan.


def run_nocode(r: Runner) -> None:
    p = r.params
    nc = r.client.no_code_modules
    state: dict[str, Any] = {}

    def create() -> Any:
        module = nc.create(
            p["organization"],
            NoCodeModuleCreateOptions(
                registry_module_id=p["registryModuleId"],
                version_pin=p["create"]["versionPin"],
                enabled=p["create"]["enabled"],
                variable_options=[option_set(s) for s in p["create"]["variableOptions"]],
            ),
        )
        state["module"] = module.id
        r.output("noCodeModuleId", module.id)
        return module_result(module)

    r.call("noCodeModules.create", None, create)

    def read_included() -> Any:
        module = nc.read(state["module"], NoCodeModuleReadOptions(include=[NoCodeModuleIncludeOpt.VARIABLE_OPTIONS]))
        for s in module.variable_options:
            if s.variable_name == p["update"]["replace"]["variableName"]:
                state["replace"] = s.id
        return module_result(module)

    r.call("noCodeModules.read(include variable-options)", {"the module id": state.get("module")}, read_included)

    def update_options() -> Any:
        # No registry_module_id: pytfe then reads the module first to fill the relationship in.
        module = nc.update(
            state["module"],
            NoCodeModuleUpdateOptions(
                enabled=p["update"]["enabled"],
                variable_options=[
                    option_set(p["update"]["replace"], state["replace"]),
                    option_set(p["update"]["add"]),
                ],
            ),
        )
        return module_result(module)

    r.call(
        "noCodeModules.update(enable, options with and without id)",
        {"the module id": state.get("module"), "the id of the options set to replace": state.get("replace")},
        update_options,
    )

    def create_workspace() -> Any:
        w = p["workspace"]
        workspace = nc.create_workspace(
            state["module"],
            NoCodeWorkspaceCreateOptions(
                name=w["name"],
                project_id=p["projectId"],
                description=w["description"],
                auto_apply=w["autoApply"],
                execution_mode=ExecutionMode(w["executionMode"]),
                agent_pool_id=p["agentPoolId"] if w["executionMode"] == "agent" else None,
                source_name=w["sourceName"],
                source_url=w["sourceUrl"],
                vars=variables(w["vars"]),
            ),
        )
        state["workspace"] = workspace.id
        r.output("workspaceId", workspace.id)
        return workspace_result(workspace)

    r.call("noCodeModules.createWorkspace", {"the module id": state.get("module")}, create_workspace)

    def read_workspace(name: str) -> None:
        r.call(
            name,
            {"the workspace id": state.get("workspace")},
            lambda: workspace_result(r.client.workspaces.read_by_id(state["workspace"])),
        )

    read_workspace("workspaces.readByID(created)")

    def upgrade(label: str, items: list[dict[str, Any]] | None) -> None:
        run: dict[str, Any] = {}
        needs = {"the module id": state.get("module"), "the workspace id": state.get("workspace")}

        def initiate() -> Any:
            options = NoCodeWorkspaceUpgradeOptions(vars=variables(items)) if items else None
            started = nc.upgrade_workspace(state["module"], state["workspace"], options)
            run["id"] = started.id
            return upgrade_result(started)

        r.call(f"noCodeModules.upgradeWorkspace({label})", needs, initiate)

        def poll() -> Any:
            deadline = time.monotonic() + p.get("deadlineMs", 30000) / 1000
            statuses: list[str] = []
            while True:
                read = nc.read_workspace_upgrade(state["module"], state["workspace"], run["id"])
                if not statuses or statuses[-1] != read.status:
                    statuses.append(read.status)
                if read.status not in IN_PROGRESS:
                    return {**upgrade_result(read), "statuses": statuses}
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the plan did not end in time; statuses seen: {statuses}")
                time.sleep(p.get("pollIntervalMs", 100) / 1000)

        r.call(f"readUpgrade({label}) until the plan ends", {"the upgrade id": run.get("id")}, poll)

        def confirm() -> Any:
            nc.confirm_workspace_upgrade(state["module"], state["workspace"], run["id"])
            return {}

        r.call(f"confirmUpgrade({label})", {"the upgrade id": run.get("id")}, confirm)

    upgrade("vars", p["upgradeVars"])

    r.call(
        "noCodeModules.update(version pin)",
        {"the module id": state.get("module")},
        lambda: module_result(nc.update(state["module"], NoCodeModuleUpdateOptions(version_pin=p["upgradePin"]))),
    )
    read_workspace("workspaces.readByID(upgrade available)")
    upgrade("no vars", None)
    read_workspace("workspaces.readByID(upgraded)")


def run_nocode_delete(r: Runner) -> None:
    module_id = r.params.get("noCodeModuleId")
    nc = r.client.no_code_modules
    needs = {"the module id": module_id}

    def delete() -> Any:
        nc.delete(module_id)
        return {}

    r.call("noCodeModules.delete", needs, delete)

    def read_deleted() -> Any:
        try:
            nc.read(module_id)
        except NotFound:
            return {"error": "NotFound"}
        raise AssertionError("expected NotFound, the call succeeded")

    r.call("noCodeModules.read(deleted)", needs, read_deleted)


# ---------------------------------------------------------------------------------------------------------
# Scenario "projects" (issue 6): projects, tag bindings, workspaces, moves and /vars, in the order of the Go
# program's runProjects; parameters as its projectsPlan. pytfe has no service for the standalone /vars
# endpoints: those calls go through the client's own transport (its private ``_transport``, the one every
# pytfe service uses) and are decoded as the dicts the answer holds.


def project_result(project: Any) -> dict[str, Any]:
    result = {
        "id": project.id,
        "name": project.name,
        "description": project.description,
        "organization": getattr(project.organization, "id", None),
    }
    # Only the answers that carry the attribute (show) say what it is.
    if "auto_destroy_activity_duration" in project.model_fields_set:
        result["autoDestroyActivityDuration"] = project.auto_destroy_activity_duration
    return result


def tag_results(bindings: Any) -> list[dict[str, Any]]:
    return [{"id": b.id, "key": b.key, "value": b.value} for b in bindings]


def effective_tag_results(bindings: Any) -> list[dict[str, Any]]:
    return sorted(
        [{"id": b.id, "key": b.key, "value": b.value, "links": b.links} for b in bindings], key=lambda b: b["key"]
    )


def tags(items: list[dict[str, str]]) -> list[TagBinding]:
    return [TagBinding(key=t["key"], value=t["value"]) for t in items]


def variable_result(item: dict[str, Any]) -> dict[str, Any]:
    attributes = item.get("attributes") or {}
    workspace = ((item.get("relationships") or {}).get("configurable") or {}).get("data") or {}
    return {
        "id": item.get("id"),
        "key": attributes.get("key"),
        "value": attributes.get("value"),
        "description": attributes.get("description"),
        "category": attributes.get("category"),
        "hcl": attributes.get("hcl"),
        "sensitive": attributes.get("sensitive"),
        "workspaceId": workspace.get("id"),
    }


def run_projects(r: Runner) -> None:
    p = r.params
    projects = r.client.projects
    workspaces = r.client.workspaces
    transport = r.client._transport
    state: dict[str, Any] = {}

    def create() -> Any:
        c = p["create"]
        project = projects.create(
            p["organization"],
            ProjectCreateOptions(
                name=c["name"],
                description=c["description"],
                auto_destroy_activity_duration=c["autoDestroyActivityDuration"],
                tag_bindings=tags(c["tags"]),
            ),
        )
        state["project"] = project.id
        r.output("projectId", project.id)
        return project_result(project)

    r.call("projects.create(tag bindings)", None, create)

    def create_second() -> Any:
        project = projects.create(
            p["organization"], ProjectCreateOptions(name=p["second"]["name"], tag_bindings=tags(p["second"]["tags"]))
        )
        state["second"] = project.id
        r.output("secondProjectId", project.id)
        return project_result(project)

    r.call("projects.create", None, create_second)

    need_project = {"the project id": state.get("project")}
    r.call("projects.read", need_project, lambda: project_result(projects.read(state["project"])))

    def update() -> Any:
        u = p["update"]
        project = projects.update(
            state["project"],
            ProjectUpdateOptions(name=u["name"], description=u["description"], tag_bindings=tags(u["tags"])),
        )
        return project_result(project)

    r.call("projects.update(name, description, tag bindings)", need_project, update)

    # pytfe walks the pages itself (meta.pagination's next-page); the exchanges show each page.
    r.call(
        "projects.list(q, every page)",
        None,
        lambda: {
            "names": [
                project.name
                for project in projects.list(p["organization"], ProjectListOptions(query=p["search"], page_size=p["pageSize"]))
            ]
        },
    )
    r.call(
        "projects.list(filter names)",
        None,
        lambda: {"names": sorted(project.name for project in projects.list(p["organization"], ProjectListOptions(name=p["listNames"])))},
    )

    r.call("projects.listTagBindings", need_project, lambda: tag_results(projects.list_tag_bindings(state["project"])))
    r.call(
        "projects.addTagBindings",
        need_project,
        lambda: tag_results(
            projects.add_tag_bindings(state["project"], ProjectAddTagBindingsOptions(tag_bindings=tags(p["addTags"])))
        ),
    )
    r.call(
        "projects.listEffectiveTagBindings",
        need_project,
        lambda: effective_tag_results(projects.list_effective_tag_bindings(state["project"])),
    )

    # pytfe's tag filter is a dict of key to value; an empty value filters by the key alone.
    def list_names(options: ProjectListOptions) -> Any:
        return {"names": sorted(project.name for project in projects.list(p["organization"], options))}

    r.call(
        "projects.list(tag bindings filter)",
        None,
        lambda: list_names(ProjectListOptions(tags={t["key"]: t["value"] for t in p["tagFilter"]})),
    )
    r.call("projects.list(tag key filter)", None, lambda: list_names(ProjectListOptions(tags={p["keyTagFilter"]: ""})))

    # pytfe 1.5 sends the include but does not read `included` in a list: what it decodes is the projects,
    # and the relationship data it keeps raw.
    def list_included() -> Any:
        listed = projects.list(p["organization"], ProjectListOptions(query=p["search"], include=["effective_tag_bindings"]))
        result = [
            {
                "name": project.name,
                "tagIds": [item["id"] for item in project.relationships["effective-tag-bindings"]["data"]],
            }
            for project in listed
        ]
        return sorted(result, key=lambda item: item["name"])

    r.call("projects.list(q, include effective tag bindings)", None, list_included)

    def list_invalid_include() -> Any:
        try:
            list(projects.list(p["organization"], ProjectListOptions(include=[p["invalidInclude"]])))
        except TFEError as error:
            return {"error": type(error).__name__, "message": str(error)}
        raise AssertionError("expected an error, the call succeeded")

    r.call("projects.list(invalid include)", None, list_invalid_include)

    ws = p["workspace"]
    r.call("workspaces.readByID", None, lambda: workspace_result(workspaces.read_by_id(ws["id"])))
    r.call(
        "workspaces.read(by name)",
        None,
        lambda: workspace_result(workspaces.read(ws["name"], organization=p["organization"])),
    )

    def update_attributes() -> Any:
        u = ws["update"]
        workspace = workspaces.update_by_id(
            ws["id"],
            WorkspaceUpdateOptions(
                description=u["description"],
                auto_apply=u["autoApply"],
                execution_mode=ExecutionMode(u["executionMode"]),
                agent_pool_id=u.get("agentPoolId") or None,
            ),
        )
        return workspace_result(workspace)

    r.call("workspaces.updateByID(attributes)", None, update_attributes)

    def move_by_update() -> Any:
        workspace = workspaces.update_by_id(
            ws["id"], WorkspaceUpdateOptions(description=ws["moveDescription"], project=Project(id=state["project"]))
        )
        return workspace_result(workspace)

    r.call("workspaces.updateByID(project and description)", need_project, move_by_update)

    def move() -> Any:
        projects.move_workspaces(state["project"], [p["secondWorkspaceId"]])
        return {}

    r.call("projects.moveWorkspaces", need_project, move)

    def refused_move() -> Any:
        try:
            workspaces.update_by_id(
                ws["id"],
                WorkspaceUpdateOptions(description=ws["refusedDescription"], project=Project(id=p["unknownProjectId"])),
            )
        except NotFound:
            return {"error": "NotFound"}
        raise AssertionError("expected NotFound, the call succeeded")

    r.call("workspaces.updateByID(unknown project and description)", None, refused_move)

    r.call(
        "workspaces.listEffectiveTagBindings",
        None,
        lambda: effective_tag_results(workspaces.list_effective_tag_bindings(ws["id"])),
    )

    # After the moves: the workspaces now in the created project carry its tags.
    r.call(
        "workspaces.list(tag bindings filter)",
        None,
        lambda: {
            "names": sorted(
                workspace.name
                for workspace in workspaces.list(
                    p["organization"], WorkspaceListOptions(tag_bindings=tags(p["workspaceTagFilter"]))
                )
            )
        },
    )

    def create_var(name: str, v: dict[str, Any], output: str) -> None:
        def fn() -> Any:
            body = {
                "data": {
                    "type": "vars",
                    "attributes": {
                        "key": v["key"],
                        "value": v["value"],
                        "description": v["description"],
                        "category": v["category"],
                        "hcl": v["hcl"],
                        "sensitive": v["sensitive"],
                    },
                    "relationships": {"workspace": {"data": {"type": "workspaces", "id": ws["id"]}}},
                }
            }
            created = transport.request("POST", "/api/v2/vars", json_body=body).json()["data"]
            state[output] = created["id"]
            r.output(output, created["id"])
            return variable_result(created)

        r.call(name, None, fn)
        r.report["calls"][-1]["via"] = "client._transport.request (pytfe has no service for /vars)"

    create_var("vars.create", p["vars"]["plain"], "plainVarId")
    create_var("vars.create(sensitive)", p["vars"]["sensitive"], "sensitiveVarId")

    def list_vars(name: str) -> None:
        def fn() -> Any:
            params = {"filter[organization][name]": p["organization"], "filter[workspace][name]": ws["name"]}
            items = transport.request("GET", "/api/v2/vars", params=params).json()["data"]
            return sorted((variable_result(item) for item in items), key=lambda v: v["key"])

        r.call(name, None, fn)
        r.report["calls"][-1]["via"] = "client._transport.request"

    list_vars("vars.list")

    need_var = {"the variable id": state.get("plainVarId")}

    def update_var() -> Any:
        body = {
            "data": {
                "type": "vars",
                "id": state["plainVarId"],
                "attributes": {"value": p["vars"]["updateValue"], "hcl": p["vars"]["updateHcl"]},
            }
        }
        return variable_result(transport.request("PATCH", f"/api/v2/vars/{state['plainVarId']}", json_body=body).json()["data"])

    r.call("vars.update", need_var, update_var)
    r.report["calls"][-1]["via"] = "client._transport.request"

    def delete_var() -> Any:
        transport.request("DELETE", f"/api/v2/vars/{state['plainVarId']}")
        return {}

    r.call("vars.delete", need_var, delete_var)
    r.report["calls"][-1]["via"] = "client._transport.request"
    list_vars("vars.list(after delete)")

    need_second = {"the second project's id": state.get("second")}

    def delete_all_tags() -> Any:
        projects.delete_tag_bindings(state["second"])
        return {}

    r.call("projects.deleteAllTagBindings", need_second, delete_all_tags)
    r.call(
        "projects.listTagBindings(after delete all)",
        need_second,
        lambda: tag_results(projects.list_tag_bindings(state["second"])),
    )

    def delete_workspace() -> Any:
        workspaces.delete_by_id(p["deleteWorkspaceId"])
        return {}

    r.call("workspaces.deleteByID", None, delete_workspace)

    def read_deleted_workspace() -> Any:
        try:
            workspaces.read_by_id(p["deleteWorkspaceId"])
        except NotFound:
            return {"error": "NotFound"}
        raise AssertionError("expected NotFound, the call succeeded")

    r.call("workspaces.readByID(deleted)", None, read_deleted_workspace)

    def delete_project() -> Any:
        projects.delete(state["second"])
        return {}

    r.call("projects.delete", need_second, delete_project)

    def read_deleted_project() -> Any:
        try:
            projects.read(state["second"])
        except NotFound:
            return {"error": "NotFound"}
        raise AssertionError("expected NotFound, the call succeeded")

    r.call("projects.read(deleted)", need_second, read_deleted_project)


SCENARIOS: dict[str, Callable[[Runner], None]] = {
    "nocode": run_nocode,
    "nocode-delete": run_nocode_delete,
    "projects": run_projects,
}


def main() -> int:
    if len(sys.argv) != 2 or sys.argv[1] not in SCENARIOS:
        print(f"usage: compat.py SCENARIO (one of: {', '.join(sorted(SCENARIOS))}), parameters as JSON in COMPAT_INPUT", file=sys.stderr)
        return 2
    try:
        params = json.loads(os.environ.get("COMPAT_INPUT") or "{}")
    except ValueError as error:
        print(f"COMPAT_INPUT is not JSON: {error}", file=sys.stderr)
        return 2
    try:
        runner = Runner(sys.argv[1], params)
    except Exception as error:
        print(f"cannot make the pytfe client: {error}", file=sys.stderr)
        return 3
    SCENARIOS[sys.argv[1]](runner)
    json.dump(runner.report, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
