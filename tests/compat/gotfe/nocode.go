// The no-code calls of go-tfe (issue 5): RegistryNoCodeModules and the workspace read, in the order a user
// drives them. Every value the calls send comes from the parameters, so the test that judges the report is
// the one place that states them.
package main

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

func init() {
	scenarios["nocode"] = runNoCode
	scenarios["nocode-delete"] = runNoCodeDelete
}

// optionSet is one variable-options set of the parameters.
type optionSet struct {
	VariableName string   `json:"variableName"`
	VariableType string   `json:"variableType"`
	Options      []string `json:"options"`
}

// workspaceVar is one var of the parameters.
type workspaceVar struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Description string `json:"description"`
	Category    string `json:"category"`
	HCL         bool   `json:"hcl"`
	Sensitive   bool   `json:"sensitive"`
}

// noCodePlan is what scenario "nocode" does, as the test states it.
type noCodePlan struct {
	Organization     string `json:"organization"`
	RegistryModuleID string `json:"registryModuleId"`
	ProjectID        string `json:"projectId"`
	AgentPoolID      string `json:"agentPoolId"`
	Create           struct {
		VersionPin      string      `json:"versionPin"`
		Enabled         bool        `json:"enabled"`
		VariableOptions []optionSet `json:"variableOptions"`
	} `json:"create"`
	// Update enables the module and rewrites its options: the set of `Replace.VariableName` (made by create)
	// is sent with its id and new options; `Add` is sent without an id.
	Update struct {
		Enabled bool      `json:"enabled"`
		Replace optionSet `json:"replace"`
		Add     optionSet `json:"add"`
	} `json:"update"`
	Workspace struct {
		Name          string         `json:"name"`
		Description   string         `json:"description"`
		AutoApply     bool           `json:"autoApply"`
		ExecutionMode string         `json:"executionMode"`
		SourceName    string         `json:"sourceName"`
		SourceURL     string         `json:"sourceUrl"`
		Vars          []workspaceVar `json:"vars"`
	} `json:"workspace"`
	UpgradeVars    []workspaceVar `json:"upgradeVars"`
	UpgradePin     string         `json:"upgradePin"`
	PollIntervalMs int            `json:"pollIntervalMs"`
	DeadlineMs     int            `json:"deadlineMs"`
}

// inProgress are the upgrade statuses a poll waits through (the local service's state machine).
var inProgress = map[string]bool{"pending": true, "fetching": true, "planning": true}

// runID takes the run id out of an upgrade's plan URL: go-tfe's WorkspaceUpgrade decodes no id, and the
// plan URL (the run's page) is the only place a go-tfe user has it.
var runID = regexp.MustCompile(`run-[A-Za-z0-9]+`)

func runNoCode(r *Runner) {
	var plan noCodePlan
	r.Decode(&plan)
	ctx := r.Ctx
	var moduleID, workspaceID, replaceID string

	r.Call("noCodeModules.create", nil, func() (any, error) {
		options := tfe.RegistryNoCodeModuleCreateOptions{
			RegistryModule:  &tfe.RegistryModule{ID: plan.RegistryModuleID},
			VersionPin:      plan.Create.VersionPin,
			Enabled:         tfe.Bool(plan.Create.Enabled),
			VariableOptions: variableOptions(plan.Create.VariableOptions, nil),
		}
		module, err := r.Client.RegistryNoCodeModules.Create(ctx, plan.Organization, options)
		if err != nil {
			return nil, err
		}
		moduleID = module.ID
		r.Output("noCodeModuleId", module.ID)
		return moduleResult(module), nil
	})

	r.Call("noCodeModules.read(include variable-options)", map[string]string{"the module id": moduleID}, func() (any, error) {
		module, err := r.Client.RegistryNoCodeModules.Read(ctx, moduleID, &tfe.RegistryNoCodeModuleReadOptions{
			Include: []tfe.RegistryNoCodeModuleIncludeOpt{tfe.RegistryNoCodeIncludeVariableOptions},
		})
		if err != nil {
			return nil, err
		}
		for _, set := range module.VariableOptions {
			if set.VariableName == plan.Update.Replace.VariableName {
				replaceID = set.Type // go-tfe keeps a set's id in the field named Type (its JSON:API primary).
			}
		}
		return moduleResult(module), nil
	})

	r.Call("noCodeModules.read(invalid include)", map[string]string{"the module id": moduleID}, func() (any, error) {
		_, err := r.Client.RegistryNoCodeModules.Read(ctx, moduleID, &tfe.RegistryNoCodeModuleReadOptions{
			Include: []tfe.RegistryNoCodeModuleIncludeOpt{"no-such-relation"},
		})
		return expectError(err, tfe.ErrInvalidIncludeValue, "ErrInvalidIncludeValue")
	})

	r.Call("noCodeModules.update(enable, options with and without id)", map[string]string{
		"the module id": moduleID, "the id of the options set to replace": replaceID,
	}, func() (any, error) {
		sets := variableOptions([]optionSet{plan.Update.Replace, plan.Update.Add}, map[string]string{plan.Update.Replace.VariableName: replaceID})
		module, err := r.Client.RegistryNoCodeModules.Update(ctx, moduleID, tfe.RegistryNoCodeModuleUpdateOptions{
			RegistryModule:  &tfe.RegistryModule{ID: plan.RegistryModuleID}, // go-tfe requires it on every update
			Enabled:         tfe.Bool(plan.Update.Enabled),
			VariableOptions: sets,
		})
		if err != nil {
			return nil, err
		}
		return moduleResult(module), nil
	})

	r.Call("noCodeModules.createWorkspace", map[string]string{"the module id": moduleID}, func() (any, error) {
		options := &tfe.RegistryNoCodeModuleCreateWorkspaceOptions{
			Name:          plan.Workspace.Name,
			Description:   tfe.String(plan.Workspace.Description),
			AutoApply:     tfe.Bool(plan.Workspace.AutoApply),
			Project:       &tfe.Project{ID: plan.ProjectID},
			Variables:     variables(plan.Workspace.Vars),
			SourceName:    tfe.String(plan.Workspace.SourceName),
			SourceURL:     tfe.String(plan.Workspace.SourceURL),
			ExecutionMode: tfe.String(plan.Workspace.ExecutionMode),
		}
		if plan.Workspace.ExecutionMode == "agent" {
			options.AgentPoolID = tfe.String(plan.AgentPoolID)
		}
		workspace, err := r.Client.RegistryNoCodeModules.CreateWorkspace(ctx, moduleID, options)
		if err != nil {
			return nil, err
		}
		workspaceID = workspace.ID
		r.Output("workspaceId", workspace.ID)
		return workspaceResult(workspace), nil
	})

	readWorkspace := func(name string) {
		r.Call(name, map[string]string{"the workspace id": workspaceID}, func() (any, error) {
			workspace, err := r.Client.Workspaces.ReadByID(ctx, workspaceID)
			if err != nil {
				return nil, err
			}
			return workspaceResult(workspace), nil
		})
	}
	readWorkspace("workspaces.readByID(created)")

	upgrade := func(label string, vars []workspaceVar) {
		var upgradeID string
		r.Call("noCodeModules.upgradeWorkspace("+label+")", map[string]string{"the module id": moduleID, "the workspace id": workspaceID}, func() (any, error) {
			options := &tfe.RegistryNoCodeModuleUpgradeWorkspaceOptions{Variables: variables(vars)}
			started, err := r.Client.RegistryNoCodeModules.UpgradeWorkspace(ctx, moduleID, workspaceID, options)
			if err != nil {
				return nil, err
			}
			result := upgradeResult(started)
			upgradeID, _ = result["id"].(string)
			if upgradeID == "" {
				return result, fmt.Errorf("no run id in plan-url %q", started.PlanURL)
			}
			return result, nil
		})

		path := fmt.Sprintf("no-code-modules/%s/workspaces/%s/upgrade/%s", moduleID, workspaceID, upgradeID)
		needs := map[string]string{"the upgrade's run id": upgradeID}
		r.Call("readUpgrade("+label+") until the plan ends", needs, func() (any, error) {
			deadline := time.Now().Add(Millis(plan.DeadlineMs, 30*time.Second))
			statuses := []string{}
			for {
				request, err := r.Client.NewRequest("GET", path, nil)
				if err != nil {
					return nil, err
				}
				read := &tfe.WorkspaceUpgrade{}
				if err := request.Do(ctx, read); err != nil {
					return map[string]any{"statuses": statuses}, err
				}
				if len(statuses) == 0 || statuses[len(statuses)-1] != read.Status {
					statuses = append(statuses, read.Status)
				}
				if !inProgress[read.Status] {
					result := upgradeResult(read)
					result["statuses"] = statuses
					return result, nil
				}
				if time.Now().After(deadline) {
					return map[string]any{"statuses": statuses}, fmt.Errorf("the plan did not end within %d ms", plan.DeadlineMs)
				}
				time.Sleep(Millis(plan.PollIntervalMs, 100*time.Millisecond))
			}
		})
		r.Via("client.NewRequest + WorkspaceUpgrade (go-tfe has no method to read an upgrade)")

		r.Call("confirmUpgrade("+label+")", needs, func() (any, error) {
			request, err := r.Client.NewRequest("POST", path, nil)
			if err != nil {
				return nil, err
			}
			return map[string]any{}, request.Do(ctx, nil)
		})
		r.Via("client.NewRequest with no body (go-tfe has no method to confirm an upgrade)")
	}
	upgrade("vars", plan.UpgradeVars)

	r.Call("noCodeModules.update(version pin)", map[string]string{"the module id": moduleID}, func() (any, error) {
		module, err := r.Client.RegistryNoCodeModules.Update(ctx, moduleID, tfe.RegistryNoCodeModuleUpdateOptions{
			RegistryModule: &tfe.RegistryModule{ID: plan.RegistryModuleID},
			VersionPin:     plan.UpgradePin,
		})
		if err != nil {
			return nil, err
		}
		return moduleResult(module), nil
	})
	readWorkspace("workspaces.readByID(upgrade available)")
	upgrade("no vars", nil)
	readWorkspace("workspaces.readByID(upgraded)")
}

// noCodeDeletePlan is what scenario "nocode-delete" does.
type noCodeDeletePlan struct {
	NoCodeModuleID string `json:"noCodeModuleId"`
}

func runNoCodeDelete(r *Runner) {
	var plan noCodeDeletePlan
	r.Decode(&plan)
	needs := map[string]string{"the module id": plan.NoCodeModuleID}
	r.Call("noCodeModules.delete", needs, func() (any, error) {
		return map[string]any{}, r.Client.RegistryNoCodeModules.Delete(r.Ctx, plan.NoCodeModuleID)
	})
	r.Call("noCodeModules.read(deleted)", needs, func() (any, error) {
		_, err := r.Client.RegistryNoCodeModules.Read(r.Ctx, plan.NoCodeModuleID, nil)
		return expectError(err, tfe.ErrResourceNotFound, "ErrResourceNotFound")
	})
}

// expectError turns "the client answered the error it should" into a success of the call.
func expectError(err error, want error, name string) (any, error) {
	if err == nil {
		return nil, fmt.Errorf("expected %s, the call succeeded", name)
	}
	if !errors.Is(err, want) {
		return nil, fmt.Errorf("expected %s, got: %w", name, err)
	}
	return map[string]any{"error": name}, nil
}

func variableOptions(sets []optionSet, ids map[string]string) []*tfe.NoCodeVariableOption {
	out := []*tfe.NoCodeVariableOption{}
	for _, set := range sets {
		out = append(out, &tfe.NoCodeVariableOption{
			Type:         ids[set.VariableName], // the set's id; empty means a new set
			VariableName: set.VariableName,
			VariableType: set.VariableType,
			Options:      set.Options,
		})
	}
	return out
}

func variables(vars []workspaceVar) []*tfe.Variable {
	var out []*tfe.Variable
	for _, v := range vars {
		out = append(out, &tfe.Variable{
			Key:         v.Key,
			Value:       v.Value,
			Description: v.Description,
			Category:    tfe.CategoryType(v.Category),
			HCL:         v.HCL,
			Sensitive:   v.Sensitive,
		})
	}
	return out
}

func moduleResult(module *tfe.RegistryNoCodeModule) map[string]any {
	sets := []map[string]any{}
	for _, set := range module.VariableOptions {
		sets = append(sets, map[string]any{
			"id":           set.Type,
			"variableName": set.VariableName,
			"variableType": set.VariableType,
			"options":      set.Options,
		})
	}
	result := map[string]any{
		"id":              module.ID,
		"enabled":         module.Enabled,
		"versionPin":      module.VersionPin,
		"variableOptions": sets,
	}
	if module.Organization != nil {
		result["organization"] = module.Organization.Name
	}
	if module.RegistryModule != nil {
		result["registryModuleId"] = module.RegistryModule.ID
	}
	return result
}

func workspaceResult(workspace *tfe.Workspace) map[string]any {
	varIDs := []string{}
	for _, v := range workspace.Variables {
		varIDs = append(varIDs, v.ID)
	}
	result := map[string]any{
		"id":                     workspace.ID,
		"name":                   workspace.Name,
		"description":            workspace.Description,
		"source":                 string(workspace.Source),
		"sourceName":             workspace.SourceName,
		"sourceUrl":              workspace.SourceURL,
		"sourceModuleId":         workspace.SourceModuleID,
		"autoApply":              workspace.AutoApply,
		"executionMode":          workspace.ExecutionMode,
		"noCodeUpgradeAvailable": workspace.NoCodeUpgradeAvailable,
		"varIds":                 varIDs,
	}
	if workspace.Project != nil {
		result["projectId"] = workspace.Project.ID
	}
	if workspace.Organization != nil {
		result["organization"] = workspace.Organization.Name
	}
	if workspace.AgentPool != nil {
		result["agentPoolId"] = workspace.AgentPool.ID
	}
	return result
}

func upgradeResult(upgrade *tfe.WorkspaceUpgrade) map[string]any {
	return map[string]any{
		"id":      runID.FindString(upgrade.PlanURL),
		"status":  upgrade.Status,
		"planUrl": upgrade.PlanURL,
		"message": upgrade.Message,
	}
}
