// The project, tag-binding, workspace and /vars calls of go-tfe (issue 6): Projects (create with tag
// bindings, read, update, list with a search, a name filter and pages, with tag filters and with the effective
// tag bindings included, tag bindings, effective tag bindings, delete), Workspaces (read by id and by name,
// update, move through an update's project, effective tag bindings, list with tag filters, delete), and the standalone /vars endpoints, which go-tfe has no service for: those go through
// the client's own NewRequest with its jsonapi encoding and its Variable type, as a go-tfe user would make
// them. Every value the calls send comes from the parameters, so the test that judges the report is the one
// place that states them.
package main

import (
	"fmt"
	"sort"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/jsonapi"
)

func init() {
	scenarios["projects"] = runProjects
}

// tag is one tag binding of the parameters.
type tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// projectsPlan is what scenario "projects" does, as the test states it.
type projectsPlan struct {
	Organization string `json:"organization"`
	Create       struct {
		Name                        string `json:"name"`
		Description                 string `json:"description"`
		AutoDestroyActivityDuration string `json:"autoDestroyActivityDuration"`
		Tags                        []tag  `json:"tags"`
	} `json:"create"`
	// Second is a plain project, made to be listed, emptied of tags and deleted.
	Second struct {
		Name string `json:"name"`
		Tags []tag  `json:"tags"`
	} `json:"second"`
	Update struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Tags        []tag  `json:"tags"`
	} `json:"update"`
	// Search is the `q` of the paged list; PageSize its page size.
	Search    string `json:"search"`
	PageSize  int    `json:"pageSize"`
	ListNames string `json:"listNames"`
	AddTags   []tag  `json:"addTags"`
	Workspace struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		// Update is applied first, alone; then MoveDescription goes with the move into the created project.
		Update struct {
			Description   string `json:"description"`
			AutoApply     bool   `json:"autoApply"`
			ExecutionMode string `json:"executionMode"`
			AgentPoolID   string `json:"agentPoolId"`
		} `json:"update"`
		MoveDescription    string `json:"moveDescription"`
		RefusedDescription string `json:"refusedDescription"`
	} `json:"workspace"`
	// SecondWorkspaceID is moved into the created project with nothing else.
	SecondWorkspaceID string `json:"secondWorkspaceId"`
	UnknownProjectID  string `json:"unknownProjectId"`
	Vars              struct {
		Plain       workspaceVar `json:"plain"`
		Sensitive   workspaceVar `json:"sensitive"`
		UpdateValue string       `json:"updateValue"`
		UpdateHCL   bool         `json:"updateHcl"`
	} `json:"vars"`
	DeleteWorkspaceID string `json:"deleteWorkspaceId"`
	// TagFilter is the TagBindings of a project list (a binding with an empty value filters by key alone);
	// KeyTagFilter the key of a list by one key; WorkspaceTagFilter the TagBindings of a workspace list.
	TagFilter          []tag  `json:"tagFilter"`
	KeyTagFilter       string `json:"keyTagFilter"`
	WorkspaceTagFilter []tag  `json:"workspaceTagFilter"`
	// InvalidInclude is an include the project list does not know.
	InvalidInclude string `json:"invalidInclude"`
}

// varCreate is the body of POST /vars: go-tfe's VariableCreateOptions plus the workspace relationship that
// the workspace-scoped endpoint it is made for has in its URL instead.
type varCreate struct {
	Type        string            `jsonapi:"primary,vars"`
	Key         *string           `jsonapi:"attr,key,omitempty"`
	Value       *string           `jsonapi:"attr,value,omitempty"`
	Description *string           `jsonapi:"attr,description,omitempty"`
	Category    *tfe.CategoryType `jsonapi:"attr,category,omitempty"`
	HCL         *bool             `jsonapi:"attr,hcl,omitempty"`
	Sensitive   *bool             `jsonapi:"attr,sensitive,omitempty"`
	Workspace   *tfe.Workspace    `jsonapi:"relation,workspace"`
}

// varsFilter is the query of GET /vars.
type varsFilter struct {
	Organization string `url:"filter[organization][name]"`
	Workspace    string `url:"filter[workspace][name]"`
}

func runProjects(r *Runner) {
	var plan projectsPlan
	r.Decode(&plan)
	ctx := r.Ctx
	var projectID, secondID, plainVarID string

	r.Call("projects.create(tag bindings)", nil, func() (any, error) {
		project, err := r.Client.Projects.Create(ctx, plan.Organization, tfe.ProjectCreateOptions{
			Name:                        plan.Create.Name,
			Description:                 tfe.String(plan.Create.Description),
			AutoDestroyActivityDuration: jsonapi.NewNullableAttrWithValue(plan.Create.AutoDestroyActivityDuration),
			TagBindings:                 tagBindings(plan.Create.Tags),
		})
		if err != nil {
			return nil, err
		}
		projectID = project.ID
		r.Output("projectId", project.ID)
		return projectResult(project), nil
	})

	r.Call("projects.create", nil, func() (any, error) {
		project, err := r.Client.Projects.Create(ctx, plan.Organization, tfe.ProjectCreateOptions{
			Name:        plan.Second.Name,
			TagBindings: tagBindings(plan.Second.Tags),
		})
		if err != nil {
			return nil, err
		}
		secondID = project.ID
		r.Output("secondProjectId", project.ID)
		return projectResult(project), nil
	})

	needProject := map[string]string{"the project id": projectID}
	r.Call("projects.read", needProject, func() (any, error) {
		project, err := r.Client.Projects.Read(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return projectResult(project), nil
	})

	r.Call("projects.update(name, description, tag bindings)", needProject, func() (any, error) {
		project, err := r.Client.Projects.Update(ctx, projectID, tfe.ProjectUpdateOptions{
			Name:        tfe.String(plan.Update.Name),
			Description: tfe.String(plan.Update.Description),
			TagBindings: tagBindings(plan.Update.Tags),
		})
		if err != nil {
			return nil, err
		}
		return projectResult(project), nil
	})

	r.Call("projects.list(q, every page)", nil, func() (any, error) {
		names := []string{}
		pages := []map[string]any{}
		for page := 1; page > 0; {
			list, err := r.Client.Projects.List(ctx, plan.Organization, &tfe.ProjectListOptions{
				ListOptions: tfe.ListOptions{PageNumber: page, PageSize: plan.PageSize},
				Query:       plan.Search,
			})
			if err != nil {
				return map[string]any{"names": names, "pages": pages}, err
			}
			for _, project := range list.Items {
				names = append(names, project.Name)
			}
			pages = append(pages, paginationResult(list.Pagination, len(list.Items)))
			if list.Pagination == nil || list.NextPage <= page {
				break
			}
			page = list.NextPage
		}
		return map[string]any{"names": names, "pages": pages}, nil
	})

	r.Call("projects.list(filter names)", nil, func() (any, error) {
		list, err := r.Client.Projects.List(ctx, plan.Organization, &tfe.ProjectListOptions{Name: plan.ListNames})
		if err != nil {
			return nil, err
		}
		names := []string{}
		for _, project := range list.Items {
			names = append(names, project.Name)
		}
		sort.Strings(names)
		return map[string]any{"names": names, "pages": []map[string]any{paginationResult(list.Pagination, len(list.Items))}}, nil
	})

	r.Call("projects.listTagBindings", needProject, func() (any, error) {
		bindings, err := r.Client.Projects.ListTagBindings(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return tagResults(bindings), nil
	})

	r.Call("projects.addTagBindings", needProject, func() (any, error) {
		bindings, err := r.Client.Projects.AddTagBindings(ctx, projectID, tfe.ProjectAddTagBindingsOptions{TagBindings: tagBindings(plan.AddTags)})
		if err != nil {
			return nil, err
		}
		return tagResults(bindings), nil
	})

	r.Call("projects.listEffectiveTagBindings", needProject, func() (any, error) {
		bindings, err := r.Client.Projects.ListEffectiveTagBindings(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return effectiveTagResults(bindings), nil
	})

	listNames := func(options *tfe.ProjectListOptions) (any, error) {
		list, err := r.Client.Projects.List(ctx, plan.Organization, options)
		if err != nil {
			return nil, err
		}
		names := []string{}
		for _, project := range list.Items {
			names = append(names, project.Name)
		}
		sort.Strings(names)
		return map[string]any{"names": names, "pages": []map[string]any{paginationResult(list.Pagination, len(list.Items))}}, nil
	}
	r.Call("projects.list(tag bindings filter)", nil, func() (any, error) {
		return listNames(&tfe.ProjectListOptions{TagBindings: tagBindings(plan.TagFilter)})
	})
	r.Call("projects.list(tag key filter)", nil, func() (any, error) {
		return listNames(&tfe.ProjectListOptions{TagBindings: []*tfe.TagBinding{{Key: plan.KeyTagFilter}}})
	})
	r.Call("projects.list(q, include effective tag bindings)", nil, func() (any, error) {
		list, err := r.Client.Projects.List(ctx, plan.Organization, &tfe.ProjectListOptions{
			Query:   plan.Search,
			Include: []tfe.ProjectIncludeOpt{tfe.ProjectEffectiveTagBindings},
		})
		if err != nil {
			return nil, err
		}
		projects := []map[string]any{}
		for _, project := range list.Items {
			projects = append(projects, map[string]any{"name": project.Name, "tags": effectiveTagResults(project.EffectiveTagBindings)})
		}
		sort.Slice(projects, func(i, j int) bool { return fmt.Sprint(projects[i]["name"]) < fmt.Sprint(projects[j]["name"]) })
		return projects, nil
	})
	r.Call("projects.list(invalid include)", nil, func() (any, error) {
		_, err := r.Client.Projects.List(ctx, plan.Organization, &tfe.ProjectListOptions{
			Include: []tfe.ProjectIncludeOpt{tfe.ProjectIncludeOpt(plan.InvalidInclude)},
		})
		return expectError(err, tfe.ErrInvalidIncludeValue, "ErrInvalidIncludeValue")
	})

	ws := plan.Workspace
	r.Call("workspaces.readByID", nil, func() (any, error) {
		workspace, err := r.Client.Workspaces.ReadByID(ctx, ws.ID)
		if err != nil {
			return nil, err
		}
		return workspaceResult(workspace), nil
	})

	r.Call("workspaces.read(by name)", nil, func() (any, error) {
		workspace, err := r.Client.Workspaces.Read(ctx, plan.Organization, ws.Name)
		if err != nil {
			return nil, err
		}
		return workspaceResult(workspace), nil
	})

	r.Call("workspaces.updateByID(attributes)", nil, func() (any, error) {
		options := tfe.WorkspaceUpdateOptions{
			Description:   tfe.String(ws.Update.Description),
			AutoApply:     tfe.Bool(ws.Update.AutoApply),
			ExecutionMode: tfe.String(ws.Update.ExecutionMode),
		}
		if ws.Update.AgentPoolID != "" {
			options.AgentPoolID = tfe.String(ws.Update.AgentPoolID)
		}
		workspace, err := r.Client.Workspaces.UpdateByID(ctx, ws.ID, options)
		if err != nil {
			return nil, err
		}
		return workspaceResult(workspace), nil
	})

	// go-tfe's only way to move a workspace: an update with its project.
	r.Call("workspaces.updateByID(project and description)", needProject, func() (any, error) {
		workspace, err := r.Client.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{
			Description: tfe.String(ws.MoveDescription),
			Project:     &tfe.Project{ID: projectID},
		})
		if err != nil {
			return nil, err
		}
		return workspaceResult(workspace), nil
	})

	r.Call("workspaces.updateByID(project only)", needProject, func() (any, error) {
		workspace, err := r.Client.Workspaces.UpdateByID(ctx, plan.SecondWorkspaceID, tfe.WorkspaceUpdateOptions{
			Project: &tfe.Project{ID: projectID},
		})
		if err != nil {
			return nil, err
		}
		return workspaceResult(workspace), nil
	})

	r.Call("workspaces.updateByID(unknown project and description)", nil, func() (any, error) {
		_, err := r.Client.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{
			Description: tfe.String(ws.RefusedDescription),
			Project:     &tfe.Project{ID: plan.UnknownProjectID},
		})
		return expectError(err, tfe.ErrResourceNotFound, "ErrResourceNotFound")
	})

	r.Call("workspaces.listEffectiveTagBindings", nil, func() (any, error) {
		bindings, err := r.Client.Workspaces.ListEffectiveTagBindings(ctx, ws.ID)
		if err != nil {
			return nil, err
		}
		return effectiveTagResults(bindings), nil
	})

	// After the moves: the workspaces now in the created project carry its tags.
	r.Call("workspaces.list(tag bindings filter)", nil, func() (any, error) {
		list, err := r.Client.Workspaces.List(ctx, plan.Organization, &tfe.WorkspaceListOptions{TagBindings: tagBindings(plan.WorkspaceTagFilter)})
		if err != nil {
			return nil, err
		}
		names := []string{}
		for _, workspace := range list.Items {
			names = append(names, workspace.Name)
		}
		sort.Strings(names)
		return map[string]any{"names": names, "pages": []map[string]any{paginationResult(list.Pagination, len(list.Items))}}, nil
	})

	createVar := func(name string, v workspaceVar) string {
		var id string
		r.Call(name, nil, func() (any, error) {
			category := tfe.CategoryType(v.Category)
			body := &varCreate{
				Key:         tfe.String(v.Key),
				Value:       tfe.String(v.Value),
				Description: tfe.String(v.Description),
				Category:    &category,
				HCL:         tfe.Bool(v.HCL),
				Sensitive:   tfe.Bool(v.Sensitive),
				Workspace:   &tfe.Workspace{ID: ws.ID},
			}
			request, err := r.Client.NewRequest("POST", "vars", body)
			if err != nil {
				return nil, err
			}
			created := &tfe.Variable{}
			if err := request.Do(ctx, created); err != nil {
				return nil, err
			}
			id = created.ID
			return variableResult(created), nil
		})
		r.Via("client.NewRequest + Variable (go-tfe's Variables service is for /workspaces/:id/vars)")
		return id
	}
	plainVarID = createVar("vars.create", plan.Vars.Plain)
	r.Output("plainVarId", plainVarID)
	r.Output("sensitiveVarId", createVar("vars.create(sensitive)", plan.Vars.Sensitive))

	listVars := func(name string) {
		r.Call(name, nil, func() (any, error) {
			request, err := r.Client.NewRequest("GET", "vars", &varsFilter{Organization: plan.Organization, Workspace: ws.Name})
			if err != nil {
				return nil, err
			}
			list := &tfe.VariableList{}
			if err := request.Do(ctx, list); err != nil {
				return nil, err
			}
			items := []map[string]any{}
			for _, v := range list.Items {
				items = append(items, variableResult(v))
			}
			sort.Slice(items, func(i, j int) bool { return fmt.Sprint(items[i]["key"]) < fmt.Sprint(items[j]["key"]) })
			return items, nil
		})
		r.Via("client.NewRequest + VariableList")
	}
	listVars("vars.list")

	needVar := map[string]string{"the variable id": plainVarID}
	r.Call("vars.update", needVar, func() (any, error) {
		request, err := r.Client.NewRequest("PATCH", "vars/"+plainVarID, &tfe.VariableUpdateOptions{
			Value: tfe.String(plan.Vars.UpdateValue),
			HCL:   tfe.Bool(plan.Vars.UpdateHCL),
		})
		if err != nil {
			return nil, err
		}
		updated := &tfe.Variable{}
		if err := request.Do(ctx, updated); err != nil {
			return nil, err
		}
		return variableResult(updated), nil
	})
	r.Via("client.NewRequest + VariableUpdateOptions + Variable")

	r.Call("vars.delete", needVar, func() (any, error) {
		request, err := r.Client.NewRequest("DELETE", "vars/"+plainVarID, nil)
		if err != nil {
			return nil, err
		}
		return map[string]any{}, request.Do(ctx, nil)
	})
	r.Via("client.NewRequest")
	listVars("vars.list(after delete)")

	needSecond := map[string]string{"the second project's id": secondID}
	r.Call("projects.deleteAllTagBindings", needSecond, func() (any, error) {
		return map[string]any{}, r.Client.Projects.DeleteAllTagBindings(ctx, secondID)
	})
	r.Call("projects.listTagBindings(after delete all)", needSecond, func() (any, error) {
		bindings, err := r.Client.Projects.ListTagBindings(ctx, secondID)
		if err != nil {
			return nil, err
		}
		return tagResults(bindings), nil
	})

	r.Call("workspaces.deleteByID", nil, func() (any, error) {
		return map[string]any{}, r.Client.Workspaces.DeleteByID(ctx, plan.DeleteWorkspaceID)
	})
	r.Call("workspaces.readByID(deleted)", nil, func() (any, error) {
		_, err := r.Client.Workspaces.ReadByID(ctx, plan.DeleteWorkspaceID)
		return expectError(err, tfe.ErrResourceNotFound, "ErrResourceNotFound")
	})

	r.Call("projects.delete", needSecond, func() (any, error) {
		return map[string]any{}, r.Client.Projects.Delete(ctx, secondID)
	})
	r.Call("projects.read(deleted)", needSecond, func() (any, error) {
		_, err := r.Client.Projects.Read(ctx, secondID)
		return expectError(err, tfe.ErrResourceNotFound, "ErrResourceNotFound")
	})
}

func tagBindings(tags []tag) []*tfe.TagBinding {
	out := []*tfe.TagBinding{}
	for _, t := range tags {
		out = append(out, &tfe.TagBinding{Key: t.Key, Value: t.Value})
	}
	return out
}

// tagResults are bindings as {id, key, value}, in the answer's order.
func tagResults(bindings []*tfe.TagBinding) []map[string]any {
	out := []map[string]any{}
	for _, b := range bindings {
		out = append(out, map[string]any{"id": b.ID, "key": b.Key, "value": b.Value})
	}
	return out
}

func effectiveTagResults(bindings []*tfe.EffectiveTagBinding) []map[string]any {
	out := []map[string]any{}
	for _, b := range bindings {
		out = append(out, map[string]any{"id": b.ID, "key": b.Key, "value": b.Value, "links": b.Links})
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]["key"]) < fmt.Sprint(out[j]["key"]) })
	return out
}

func projectResult(project *tfe.Project) map[string]any {
	result := map[string]any{
		"id":          project.ID,
		"name":        project.Name,
		"description": project.Description,
	}
	if project.AutoDestroyActivityDuration.IsSpecified() {
		if project.AutoDestroyActivityDuration.IsNull() {
			result["autoDestroyActivityDuration"] = nil
		} else {
			value, _ := project.AutoDestroyActivityDuration.Get()
			result["autoDestroyActivityDuration"] = value
		}
	}
	if project.Organization != nil {
		result["organization"] = project.Organization.Name
	}
	return result
}

func paginationResult(pagination *tfe.Pagination, items int) map[string]any {
	if pagination == nil {
		return map[string]any{"items": items}
	}
	return map[string]any{
		"items":       items,
		"currentPage": pagination.CurrentPage,
		"nextPage":    pagination.NextPage,
		"totalPages":  pagination.TotalPages,
		"totalCount":  pagination.TotalCount,
	}
}

func variableResult(v *tfe.Variable) map[string]any {
	result := map[string]any{
		"id":          v.ID,
		"key":         v.Key,
		"value":       v.Value,
		"description": v.Description,
		"category":    string(v.Category),
		"hcl":         v.HCL,
		"sensitive":   v.Sensitive,
	}
	if v.Workspace != nil {
		result["workspaceId"] = v.Workspace.ID
	}
	return result
}
