// Command gotfe runs calls of the official Go client of the hosted API (github.com/hashicorp/go-tfe,
// unchanged) against the address in TFE_ADDRESS with the token in TFE_TOKEN, and prints one JSON report on
// stdout: every call's outcome, the values the client decoded, and the HTTP exchanges it made.
//
// Usage: gotfe SCENARIO, with the scenario's parameters as a JSON object in COMPAT_INPUT. Scenarios are
// registered in the `scenarios` map by the files that define them (nocode.go, ...); a new area of the API
// adds a file with its scenario functions and one map entry each.
//
// The program exits 0 whenever it could run the scenario, failed calls included: judging the report is the
// job of tests/compat/publicClients.test.ts. It exits 2 on a usage error and 3 when the client cannot be
// made at all.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// Call is one client call in the report.
type Call struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	// Error is the client's error text when the call failed; ErrorKind names the client's typed error when it
	// is one (e.g. "ErrResourceNotFound").
	Error     string `json:"error,omitempty"`
	ErrorKind string `json:"errorKind,omitempty"`
	// Skipped says which earlier call this one needed and did not get.
	Skipped string `json:"skipped,omitempty"`
	// Via says how the call was made when the client has no typed method for it.
	Via       string     `json:"via,omitempty"`
	Result    any        `json:"result,omitempty"`
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one HTTP request the client made during a call, with the answer it got.
type Exchange struct {
	Method          string `json:"method"`
	URL             string `json:"url"`
	RequestType     string `json:"requestContentType,omitempty"`
	RequestBody     any    `json:"requestBody,omitempty"`
	Status          int    `json:"status"`
	ResponseType    string `json:"responseContentType,omitempty"`
	ResponseBody    any    `json:"responseBody,omitempty"`
	TransportFailed string `json:"transportError,omitempty"`
}

// Report is what the program prints.
type Report struct {
	Client   string `json:"client"`
	Version  string `json:"version"`
	Scenario string `json:"scenario"`
	Calls    []Call `json:"calls"`
	// Output holds values a later scenario or the test needs (ids of what the calls made).
	Output map[string]any `json:"output"`
}

// Runner runs the calls of one scenario and collects the report.
type Runner struct {
	Client   *tfe.Client
	Ctx      context.Context
	input    json.RawMessage
	report   *Report
	recorder *recorder
}

// scenarios maps a scenario name to the function that runs it.
var scenarios = map[string]func(*Runner){}

// Call runs fn as the call called name, unless one of needs is empty (then the call is reported skipped).
// fn answers the decoded values to report. A panic in fn is reported as the call's error.
func (r *Runner) Call(name string, needs map[string]string, fn func() (any, error)) bool {
	call := Call{Name: name, Exchanges: []Exchange{}}
	for label, value := range needs {
		if value == "" {
			call.Skipped = "needs " + label + ", which an earlier call did not give"
			r.report.Calls = append(r.report.Calls, call)
			return false
		}
	}
	r.recorder.start()
	result, err := func() (result any, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return fn()
	}()
	call.Exchanges = r.recorder.stop()
	if err != nil {
		call.Error = err.Error()
		call.ErrorKind = errorKind(err)
		call.Result = result
	} else {
		call.OK = true
		call.Result = result
	}
	r.report.Calls = append(r.report.Calls, call)
	return call.OK
}

// Via marks the last call as made through the client's generic request method.
func (r *Runner) Via(how string) {
	r.report.Calls[len(r.report.Calls)-1].Via = how
}

// Output records a value for the test (and for later scenarios).
func (r *Runner) Output(key string, value any) {
	r.report.Output[key] = value
}

// Decode reads the scenario's parameters (COMPAT_INPUT) into v; a scenario that cannot read them stops the
// program with a usage error, since no call could mean anything.
func (r *Runner) Decode(v any) {
	if err := json.Unmarshal(r.input, v); err != nil {
		fmt.Fprintf(os.Stderr, "COMPAT_INPUT does not fit scenario %s: %v\n", r.report.Scenario, err)
		os.Exit(2)
	}
}

// Millis is a duration given in milliseconds by the parameters, or fallback when not given.
func Millis(value int, fallback time.Duration) time.Duration {
	if value > 0 {
		return time.Duration(value) * time.Millisecond
	}
	return fallback
}

// errorKind names go-tfe's exported error values, so the test can tell a typed "not found" from any error.
func errorKind(err error) string {
	known := map[string]error{
		"ErrResourceNotFound":    tfe.ErrResourceNotFound,
		"ErrUnauthorized":        tfe.ErrUnauthorized,
		"ErrInvalidIncludeValue": tfe.ErrInvalidIncludeValue,
	}
	names := make([]string, 0, len(known))
	for name := range known {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if errors.Is(err, known[name]) {
			return name
		}
	}
	return ""
}

// recorder is an http.RoundTripper that keeps every exchange of the current call. It only observes: the
// request and the answer reach go-tfe byte for byte.
type recorder struct {
	next      http.RoundTripper
	mu        sync.Mutex
	exchanges []Exchange
}

func (t *recorder) start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.exchanges = []Exchange{}
}

func (t *recorder) stop() []Exchange {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.exchanges
	t.exchanges = []Exchange{}
	return out
}

func (t *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	exchange := Exchange{Method: req.Method, URL: req.URL.String(), RequestType: req.Header.Get("Content-Type")}
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
		exchange.RequestBody = redacted(body)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		exchange.TransportFailed = err.Error()
	} else {
		exchange.Status = resp.StatusCode
		exchange.ResponseType = resp.Header.Get("Content-Type")
		body, readErr := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if readErr != nil {
			exchange.TransportFailed = readErr.Error()
		}
		exchange.ResponseBody = redacted(body)
	}
	t.mu.Lock()
	t.exchanges = append(t.exchanges, exchange)
	t.mu.Unlock()
	return resp, err
}

// redacted parses a body as JSON (its text when it is not JSON) and hides the value of every resource whose
// attributes say `sensitive: true`, so the report never carries a secret the scenario sent. Responses go
// through it too; the test separately proves the service never answers a sensitive value.
func redacted(body []byte) any {
	if len(body) == 0 {
		return nil
	}
	var parsed any
	if err := json.Unmarshal(body, &parsed); err != nil {
		return string(body)
	}
	var walk func(any)
	walk = func(node any) {
		switch value := node.(type) {
		case map[string]any:
			if attributes, ok := value["attributes"].(map[string]any); ok && attributes["sensitive"] == true {
				if _, has := attributes["value"]; has && attributes["value"] != nil {
					attributes["value"] = "<redacted>"
				}
			}
			for _, child := range value {
				walk(child)
			}
		case []any:
			for _, child := range value {
				walk(child)
			}
		}
	}
	walk(parsed)
	return parsed
}

// goTFEVersion is the go-tfe module version this program was built with.
func goTFEVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/hashicorp/go-tfe" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func main() {
	if len(os.Args) != 2 || scenarios[os.Args[1]] == nil {
		names := make([]string, 0, len(scenarios))
		for name := range scenarios {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: gotfe SCENARIO (one of: %s), parameters as JSON in COMPAT_INPUT\n", strings.Join(names, ", "))
		os.Exit(2)
	}
	input := json.RawMessage("{}")
	if raw := os.Getenv("COMPAT_INPUT"); raw != "" {
		input = json.RawMessage(raw)
	}

	rec := &recorder{next: http.DefaultTransport}
	// The client exactly as a user makes it (address and token from TFE_ADDRESS / TFE_TOKEN, which
	// DefaultConfig reads); only the HTTP client is ours, to record the exchanges.
	client, err := tfe.NewClient(&tfe.Config{HTTPClient: &http.Client{Transport: rec}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot make the go-tfe client: %v\n", err)
		os.Exit(3)
	}
	runner := &Runner{
		Client:   client,
		input:    input,
		Ctx:      context.Background(),
		recorder: rec,
		report:   &Report{Client: "go-tfe", Version: goTFEVersion(), Scenario: os.Args[1], Calls: []Call{}, Output: map[string]any{}},
	}
	scenarios[os.Args[1]](runner)

	encoder := json.NewEncoder(os.Stdout)
	encoder.SetIndent("", "  ")
	if err := encoder.Encode(runner.report); err != nil {
		fmt.Fprintf(os.Stderr, "cannot write the report: %v\n", err)
		os.Exit(3)
	}
}
