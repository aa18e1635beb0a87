module wos/compat/gotfe

go 1.26.4

require (
	github.com/hashicorp/go-tfe v1.111.0
	github.com/hashicorp/jsonapi v1.4.3-0.20250220162346-81a76b606f3e
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/hashicorp/go-slug v0.16.8 // indirect
	github.com/hashicorp/go-version v1.9.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
