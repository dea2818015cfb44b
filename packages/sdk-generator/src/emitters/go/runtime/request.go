package payments

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mathrand "math/rand"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of the client options.
const (
	DefaultBaseURL           = "http://127.0.0.1:4242"
	DefaultTimeout           = 30 * time.Second
	DefaultMaxNetworkRetries = 2
)

const (
	initialRetryDelay = 500 * time.Millisecond
	maxRetryDelay     = 5 * time.Second
	// A Retry-After longer than this is not waited for: the error goes to the caller instead.
	maxRetryAfter = 60 * time.Second
)

type config struct {
	apiVersion        string
	timeout           time.Duration
	maxNetworkRetries int
	baseURL           string
	httpClient        *http.Client
	idempotencyKey    string
}

// Option configures a Client (NewClient) or one call (as the last arguments of a method).
type Option func(*config)

// WithAPIVersion pins the API version (YYYY-MM-DD), sent as Service-Version.
func WithAPIVersion(version string) Option { return func(c *config) { c.apiVersion = version } }

// WithTimeout sets how long each attempt may take (default 30 s) before it is abandoned, then
// retried or returned as a *ConnectionError with Code "timeout".
func WithTimeout(timeout time.Duration) Option { return func(c *config) { c.timeout = timeout } }

// WithMaxNetworkRetries sets how many times a failed call is retried (connection errors, 409,
// 429, 5xx); default 2, 0 turns retries off.
func WithMaxNetworkRetries(n int) Option { return func(c *config) { c.maxNetworkRetries = n } }

// WithBaseURL sets where the service listens, without /v1.
func WithBaseURL(url string) Option {
	return func(c *config) { c.baseURL = strings.TrimRight(url, "/") }
}

// WithHTTPClient sets the *http.Client used to send requests (its Timeout is not used; see WithTimeout).
func WithHTTPClient(client *http.Client) Option { return func(c *config) { c.httpClient = client } }

// WithIdempotencyKey sends your own Idempotency-Key with a call, to make it safe to repeat
// across processes; by default one is generated per call.
func WithIdempotencyKey(key string) Option { return func(c *config) { c.idempotencyKey = key } }

type sender struct {
	apiKey string
	config config
}

func newSender(apiKey string, opts []Option) (*sender, error) {
	if strings.TrimSpace(apiKey) == "" {
		return nil, &ConfigurationError{Type: "configuration_error", Code: "api_key_missing",
			Message: "No API key given. Pass a secret (service_...) or restricted (rk_...) key, e.g. from an environment variable."}
	}
	// The server-side SDK holds secret and restricted keys; publishable keys belong in browsers.
	if strings.HasPrefix(apiKey, "pk_") {
		return nil, &ConfigurationError{Type: "configuration_error", Code: "publishable_key_not_allowed",
			Message: "A publishable key (pk_...) was given. This SDK is for servers and takes a secret (service_...) or restricted (rk_...) key; publishable keys are for the browser library."}
	}
	c := config{timeout: DefaultTimeout, maxNetworkRetries: DefaultMaxNetworkRetries, baseURL: DefaultBaseURL, httpClient: &http.Client{}}
	for _, opt := range opts {
		opt(&c)
	}
	return &sender{apiKey: apiKey, config: c}, nil
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

// call sends one API call: it builds the request, retries it when that is safe and useful, and
// decodes the reply into out or returns a typed error.
func (s *sender) call(ctx context.Context, method, path string, query map[string]interface{}, body interface{}, out interface{}, opts []Option) error {
	c := s.config
	c.idempotencyKey = ""
	for _, opt := range opts {
		opt(&c)
	}
	header := http.Header{}
	header.Set("Authorization", "Bearer "+s.apiKey)
	header.Set("Accept", "application/json")
	header.Set("User-Agent", "payments-sdk-go/"+SDKVersion)
	if c.apiVersion != "" {
		header.Set("Service-Version", c.apiVersion)
	}
	var payload []byte
	if method == http.MethodPost || method == http.MethodPut {
		// Generated once per call, before the first attempt, so every retry carries the same key
		// and the service runs the write at most once however many attempts reach it.
		key := c.idempotencyKey
		if key == "" {
			key = newUUID()
		}
		header.Set("Idempotency-Key", key)
		header.Set("Content-Type", "application/json")
		if body == nil {
			body = map[string]interface{}{}
		}
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	url := c.baseURL + path + encodeQuery(query)

	for attempt := 0; ; attempt++ {
		r, failure := s.send(ctx, c, method, url, header, payload)
		if failure == nil {
			if r.status >= 200 && r.status < 300 {
				if out == nil || len(r.body) == 0 {
					return nil
				}
				return json.Unmarshal(r.body, out)
			}
			failure = errorFromResponse(r.status, r.body, r.header)
		}
		if attempt >= c.maxNetworkRetries || !shouldRetry(r) || ctx.Err() != nil {
			return failure
		}
		timer := time.NewTimer(retryDelay(attempt, r))
		select {
		case <-ctx.Done():
			timer.Stop()
			return failure
		case <-timer.C:
		}
	}
}

func (s *sender) send(ctx context.Context, c config, method, url string, header http.Header, payload []byte) (*reply, error) {
	attemptCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(attemptCtx, method, url, body)
	if err != nil {
		return nil, err
	}
	req.Header = header.Clone()
	resp, err := c.httpClient.Do(req)
	var raw []byte
	if err == nil {
		raw, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err != nil {
		if errors.Is(attemptCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, &ConnectionError{Type: "connection_error", Code: "timeout", Cause: err,
				Message: fmt.Sprintf("The request timed out after %v (%s %s).", c.timeout, method, req.URL.Path)}
		}
		return nil, &ConnectionError{Type: "connection_error", Code: "connection_failed", Cause: err,
			Message: fmt.Sprintf("Could not reach the service at %s://%s: %v.", req.URL.Scheme, req.URL.Host, err)}
	}
	return &reply{status: resp.StatusCode, header: resp.Header, body: raw}, nil
}

// shouldRetry: retry what may succeed on a second try: no reply at all, the same idempotency
// key still running (409), a rate limit (429) and server faults (5xx).
func shouldRetry(r *reply) bool {
	return r == nil || r.status == http.StatusConflict || r.status == http.StatusTooManyRequests || r.status >= 500
}

// retryDelay is capped exponential backoff with jitter (so many clients do not retry in step),
// or Retry-After.
func retryDelay(attempt int, r *reply) time.Duration {
	backoff := math.Min(float64(initialRetryDelay)*math.Pow(2, float64(attempt)), float64(maxRetryDelay))
	delay := time.Duration(backoff * (0.5 + mathrand.Float64()*0.5))
	if r != nil {
		if seconds, err := strconv.ParseFloat(r.header.Get("Retry-After"), 64); err == nil && seconds >= 0 {
			retryAfter := time.Duration(seconds * float64(time.Second))
			if retryAfter > maxRetryAfter {
				retryAfter = maxRetryAfter
			}
			if retryAfter > delay {
				delay = retryAfter
			}
		}
	}
	return delay
}

func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// rawError is the error member of an error reply (contract section 5).
type rawError struct {
	Error struct {
		Type        string `json:"type"`
		Code        string `json:"code"`
		Message     string `json:"message"`
		Param       string `json:"param"`
		DeclineCode string `json:"decline_code"`
		RequestID   string `json:"request_id"`
	} `json:"error"`
}

func parseError(status int, body []byte, header http.Header) *Error {
	var raw rawError
	_ = json.Unmarshal(body, &raw)
	e := &Error{
		Type: raw.Error.Type, Code: raw.Error.Code, Message: raw.Error.Message, Param: raw.Error.Param,
		DeclineCode: raw.Error.DeclineCode, StatusCode: status, RequestID: raw.Error.RequestID, Header: header,
	}
	if e.Message == "" {
		e.Message = fmt.Sprintf("The service answered %d without an error body.", status)
	}
	if e.RequestID == "" {
		e.RequestID = header.Get("Request-Id")
	}
	return e
}
