package main

import (
	"encoding/json"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// anyType is the schema's type of any value.
var anyType = map[string]any{"$ref": "pulumi.json#/Any"}

// forPython is the spec the Python SDK is generated from: every union (oneOf) that has a list
// among its members becomes Any. The Python runtime cannot send a list through an input typed
// as such a union (pulumi 3.248.0: serialize_property asserts "Expected 'list' got
// 'typing.Union[...]'"), so a Multi-Select given as a list, as in secretConfig, would fail the
// program; as Any it is sent as is, and the docstrings still say which forms are accepted.
func forPython(spec schema.PackageSpec) (schema.PackageSpec, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return spec, err
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return spec, err
	}
	raw, err = json.Marshal(withoutListUnions(tree))
	if err != nil {
		return spec, err
	}
	var out schema.PackageSpec
	err = json.Unmarshal(raw, &out)
	return out, err
}

func withoutListUnions(node any) any {
	switch n := node.(type) {
	case map[string]any:
		if members, ok := n["oneOf"].([]any); ok && hasList(members) {
			delete(n, "oneOf")
			delete(n, "type")
			for key, value := range anyType {
				n[key] = value
			}
		}
		for key, value := range n {
			n[key] = withoutListUnions(value)
		}
	case []any:
		for i, value := range n {
			n[i] = withoutListUnions(value)
		}
	}
	return node
}

func hasList(members []any) bool {
	for _, member := range members {
		if m, ok := member.(map[string]any); ok && m["type"] == "array" {
			return true
		}
	}
	return false
}
