package payments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// toMap turns a params struct into its JSON object, numbers kept as written.
func toMap(params interface{}) (map[string]interface{}, error) {
	out := map[string]interface{}{}
	if params == nil {
		return out, nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(raw, []byte("null")) {
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// encodeQuery encodes parameters the way the service parses them: scalars as name=value,
// objects as name[key]=value (OpenAPI deepObject), arrays as name[]=value.
func encodeQuery(params map[string]interface{}) string {
	var pairs []string
	var add func(name string, value interface{})
	add = func(name string, value interface{}) {
		switch v := value.(type) {
		case nil:
		case map[string]interface{}:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				add(name+"["+k+"]", v[k])
			}
		case []interface{}:
			for _, item := range v {
				add(name+"[]", item)
			}
		default:
			pairs = append(pairs, url.QueryEscape(name)+"="+url.QueryEscape(fmt.Sprint(v)))
		}
	}
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		add(name, params[name])
	}
	if len(pairs) == 0 {
		return ""
	}
	return "?" + strings.Join(pairs, "&")
}

// String returns a pointer to v, for optional parameters.
func String(v string) *string { return &v }

// Int64 returns a pointer to v, for optional parameters.
func Int64(v int64) *int64 { return &v }

// Float64 returns a pointer to v, for optional parameters.
func Float64(v float64) *float64 { return &v }

// Bool returns a pointer to v, for optional parameters.
func Bool(v bool) *bool { return &v }
