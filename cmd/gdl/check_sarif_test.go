package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The SARIF 2.1.0 schema (OASIS, sarif-schema-2.1.0.json) is not in this repository: its terms
// (the OASIS IPR policy) do not plainly allow copying it here, and the module lists of this
// project's machines hold no Go JSON Schema validator. So the test checks the output against
// the schema's constraints for every object gdl writes, written out below from the schema's
// definitions: each object's allowed properties (the schema forbids any other), its required
// ones, and the type, enumeration, minimum, format and array constraints of each property.

// sarifProp is the schema of one property: a type ("string", "integer", "uri",
// "uri-reference", "array", "object", "bool"), the definition of an object or of an array's
// items ("" for strings), an enumeration, a minimum, and an array's minItems and uniqueItems.
type sarifProp struct {
	typ      string
	def      string
	enum     []string
	min      *int
	minItems int
	unique   bool
}

type sarifDef struct {
	props    map[string]sarifProp
	required []string
	anyOf    [][]string // at least one of these sets of properties is present
	open     bool       // additionalProperties allowed (a property bag)
}

func minOf(n int) *int { return &n }

var (
	str       = sarifProp{typ: "string"}
	intMinus1 = sarifProp{typ: "integer", min: minOf(-1)}
	levelEnum = []string{"none", "note", "warning", "error"}
	guid      = sarifProp{typ: "string"}
	msgRef    = sarifProp{typ: "object", def: "message"}
	mmsRef    = sarifProp{typ: "object", def: "multiformatMessageString"}
	bagRef    = sarifProp{typ: "object", def: "propertyBag"}
	arr       = func(def string, unique bool, minItems int) sarifProp {
		return sarifProp{typ: "array", def: def, unique: unique, minItems: minItems}
	}
)

// sarifSchema: the SARIF 2.1.0 definitions of the objects gdl writes. Properties the schema
// defines but gdl never writes are listed by name (they are allowed) with the loosest type.
var sarifSchema = map[string]sarifDef{
	"sarifLog": {props: map[string]sarifProp{"$schema": {typ: "uri"}, "version": {typ: "string", enum: []string{"2.1.0"}},
		"runs": arr("run", false, 0), "inlineExternalProperties": {typ: "any"}, "properties": bagRef},
		required: []string{"version", "runs"}},
	"run": {props: map[string]sarifProp{"tool": {typ: "object", def: "tool"}, "invocations": {typ: "any"}, "conversion": {typ: "any"},
		"language": str, "versionControlProvenance": {typ: "any"}, "originalUriBaseIds": {typ: "any"}, "artifacts": {typ: "any"},
		"logicalLocations": {typ: "any"}, "graphs": {typ: "any"}, "results": arr("result", false, 0), "automationDetails": {typ: "any"},
		"runAggregates": {typ: "any"}, "baselineGuid": guid, "redactionTokens": {typ: "any"}, "defaultEncoding": str,
		"defaultSourceLanguage": str, "newlineSequences": {typ: "any"},
		"columnKind":                     {typ: "string", enum: []string{"utf16CodeUnits", "unicodeCodePoints"}},
		"externalPropertyFileReferences": {typ: "any"}, "threadFlowLocations": {typ: "any"}, "taxonomies": {typ: "any"},
		"addresses": {typ: "any"}, "translations": {typ: "any"}, "policies": {typ: "any"}, "webRequests": {typ: "any"},
		"webResponses": {typ: "any"}, "specialLocations": {typ: "any"}, "properties": bagRef},
		required: []string{"tool"}},
	"tool": {props: map[string]sarifProp{"driver": {typ: "object", def: "toolComponent"}, "extensions": {typ: "any"}, "properties": bagRef},
		required: []string{"driver"}},
	"toolComponent": {props: map[string]sarifProp{"guid": guid, "name": str, "organization": str, "product": str, "productSuite": str,
		"shortDescription": mmsRef, "fullDescription": mmsRef, "fullName": str, "version": str, "semanticVersion": str,
		"dottedQuadFileVersion": str, "releaseDateUtc": str, "downloadUri": {typ: "uri"}, "informationUri": {typ: "uri"},
		"globalMessageStrings": {typ: "any"}, "notifications": {typ: "any"}, "rules": arr("reportingDescriptor", true, 0),
		"taxa": {typ: "any"}, "locations": {typ: "any"}, "language": str, "contents": {typ: "any"}, "isComprehensive": {typ: "bool"},
		"localizedDataSemanticVersion": str, "minimumRequiredLocalizedDataSemanticVersion": str, "associatedComponent": {typ: "any"},
		"translationMetadata": {typ: "any"}, "supportedTaxonomies": {typ: "any"}, "properties": bagRef},
		required: []string{"name"}},
	"reportingDescriptor": {props: map[string]sarifProp{"id": str, "deprecatedIds": {typ: "any"}, "guid": guid, "deprecatedGuids": {typ: "any"},
		"name": str, "deprecatedNames": {typ: "any"}, "shortDescription": mmsRef, "fullDescription": mmsRef, "messageStrings": {typ: "any"},
		"defaultConfiguration": {typ: "object", def: "reportingConfiguration"}, "helpUri": {typ: "uri"}, "help": mmsRef,
		"relationships": {typ: "any"}, "properties": bagRef},
		required: []string{"id"}},
	"reportingConfiguration": {props: map[string]sarifProp{"enabled": {typ: "bool"}, "level": {typ: "string", enum: levelEnum},
		"rank": {typ: "any"}, "parameters": bagRef, "properties": bagRef}},
	"multiformatMessageString": {props: map[string]sarifProp{"text": str, "markdown": str, "properties": bagRef}, required: []string{"text"}},
	"message": {props: map[string]sarifProp{"text": str, "markdown": str, "id": str, "arguments": {typ: "any"}, "properties": bagRef},
		anyOf: [][]string{{"text"}, {"id"}}},
	"propertyBag": {props: map[string]sarifProp{"tags": arr("", true, 0)}, open: true},
	"result": {props: map[string]sarifProp{"ruleId": str, "ruleIndex": intMinus1, "rule": {typ: "any"},
		"kind":  {typ: "string", enum: []string{"notApplicable", "pass", "fail", "review", "open", "informational"}},
		"level": {typ: "string", enum: levelEnum}, "message": msgRef, "analysisTarget": {typ: "object", def: "artifactLocation"},
		"locations": arr("location", false, 0), "guid": guid, "correlationGuid": guid, "occurrenceCount": {typ: "integer", min: minOf(1)},
		"partialFingerprints": {typ: "any"}, "fingerprints": {typ: "any"}, "stacks": {typ: "any"}, "codeFlows": {typ: "any"},
		"graphs": {typ: "any"}, "graphTraversals": {typ: "any"}, "relatedLocations": arr("location", true, 0),
		"suppressions": {typ: "any"}, "baselineState": {typ: "string", enum: []string{"new", "unchanged", "updated", "absent"}},
		"rank": {typ: "any"}, "attachments": {typ: "any"}, "hostedViewerUri": {typ: "uri"}, "workItemUris": {typ: "any"},
		"provenance": {typ: "any"}, "fixes": arr("fix", true, 0), "taxa": {typ: "any"}, "webRequest": {typ: "any"},
		"webResponse": {typ: "any"}, "properties": bagRef},
		required: []string{"message"}},
	"location": {props: map[string]sarifProp{"id": intMinus1, "physicalLocation": {typ: "object", def: "physicalLocation"},
		"logicalLocations": {typ: "any"}, "message": msgRef, "annotations": {typ: "any"}, "relationships": {typ: "any"}, "properties": bagRef}},
	"physicalLocation": {props: map[string]sarifProp{"address": {typ: "any"}, "artifactLocation": {typ: "object", def: "artifactLocation"},
		"region": {typ: "object", def: "region"}, "contextRegion": {typ: "object", def: "region"}, "properties": bagRef},
		anyOf: [][]string{{"address"}, {"artifactLocation"}}},
	"artifactLocation": {props: map[string]sarifProp{"uri": {typ: "uri-reference"}, "uriBaseId": str, "index": intMinus1,
		"description": msgRef, "properties": bagRef}},
	"region": {props: map[string]sarifProp{"startLine": {typ: "integer", min: minOf(1)}, "startColumn": {typ: "integer", min: minOf(1)},
		"endLine": {typ: "integer", min: minOf(1)}, "endColumn": {typ: "integer", min: minOf(1)}, "charOffset": intMinus1,
		"charLength": {typ: "integer", min: minOf(0)}, "byteOffset": intMinus1, "byteLength": {typ: "integer", min: minOf(0)},
		"snippet": {typ: "object", def: "artifactContent"}, "message": msgRef, "sourceLanguage": str, "properties": bagRef},
		anyOf: [][]string{{"startLine"}, {"charOffset"}, {"byteOffset"}}},
	"fix": {props: map[string]sarifProp{"description": msgRef, "artifactChanges": arr("artifactChange", true, 1), "properties": bagRef},
		required: []string{"artifactChanges"}},
	"artifactChange": {props: map[string]sarifProp{"artifactLocation": {typ: "object", def: "artifactLocation"},
		"replacements": arr("replacement", false, 1), "properties": bagRef},
		required: []string{"artifactLocation", "replacements"}},
	"replacement": {props: map[string]sarifProp{"deletedRegion": {typ: "object", def: "region"},
		"insertedContent": {typ: "object", def: "artifactContent"}, "properties": bagRef},
		required: []string{"deletedRegion"}},
	"artifactContent": {props: map[string]sarifProp{"text": str, "binary": str, "rendered": mmsRef, "properties": bagRef}},
}

// uriRefRE is RFC 3986's character set for a URI reference, with escapes.
var uriRefRE = regexp.MustCompile(`^([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$`)

// validateSARIF checks a decoded JSON value against definition def; it returns every violation
// with its JSON path.
func validateSARIF(v any, def, path string) []string {
	d, ok := sarifSchema[def]
	if !ok {
		return []string{path + ": no definition " + def}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: a %s must be an object, not %T", path, def, v)}
	}
	var errs []string
	for _, r := range d.required {
		if _, ok := obj[r]; !ok {
			errs = append(errs, fmt.Sprintf("%s: %s lacks the required %s", path, def, r))
		}
	}
	if d.anyOf != nil {
		found := false
		for _, set := range d.anyOf {
			all := true
			for _, k := range set {
				if _, ok := obj[k]; !ok {
					all = false
				}
			}
			found = found || all
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %s needs one of %v", path, def, d.anyOf))
		}
	}
	for k, val := range obj {
		p, ok := d.props[k]
		if !ok {
			if !d.open {
				errs = append(errs, fmt.Sprintf("%s: %s has no property %q (additionalProperties is false)", path, def, k))
			}
			continue
		}
		errs = append(errs, validateProp(val, p, path+"."+k)...)
	}
	return errs
}

func validateProp(val any, p sarifProp, path string) []string {
	switch p.typ {
	case "any":
		return nil
	case "object":
		return validateSARIF(val, p.def, path)
	case "bool":
		if _, ok := val.(bool); !ok {
			return []string{path + ": not a boolean"}
		}
	case "integer":
		f, ok := val.(float64)
		if !ok || f != float64(int64(f)) {
			return []string{fmt.Sprintf("%s: %v is not an integer", path, val)}
		}
		if p.min != nil && int(f) < *p.min {
			return []string{fmt.Sprintf("%s: %v is below the minimum %d", path, val, *p.min)}
		}
	case "string", "uri", "uri-reference":
		s, ok := val.(string)
		if !ok {
			return []string{fmt.Sprintf("%s: %v is not a string", path, val)}
		}
		if p.enum != nil && !slices.Contains(p.enum, s) {
			return []string{fmt.Sprintf("%s: %q is not one of %v", path, s, p.enum)}
		}
		if p.typ != "string" && !uriRefRE.MatchString(s) {
			return []string{fmt.Sprintf("%s: %q is not a URI reference", path, s)}
		}
		if p.typ == "uri" {
			if u, err := url.Parse(s); err != nil || u.Scheme == "" {
				return []string{fmt.Sprintf("%s: %q is not an absolute URI", path, s)}
			}
		}
	case "array":
		items, ok := val.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: not an array", path)}
		}
		var errs []string
		if len(items) < p.minItems {
			errs = append(errs, fmt.Sprintf("%s: %d items, at least %d needed", path, len(items), p.minItems))
		}
		seen := map[string]bool{}
		for i, it := range items {
			if p.unique {
				b, _ := json.Marshal(it)
				if seen[string(b)] {
					errs = append(errs, fmt.Sprintf("%s[%d]: a duplicate (uniqueItems)", path, i))
				}
				seen[string(b)] = true
			}
			if p.def == "" {
				errs = append(errs, validateProp(it, str, fmt.Sprintf("%s[%d]", path, i))...)
			} else {
				errs = append(errs, validateSARIF(it, p.def, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
		return errs
	}
	return nil
}

// validSARIF checks a SARIF log against the SARIF 2.1.0 schema's constraints and reads it.
func validSARIF(t *testing.T, out string) sarifLog {
	t.Helper()
	var log any
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, e := range validateSARIF(log, "sarifLog", "$") {
		t.Error(e)
	}
	var typed sarifLog
	if err := json.Unmarshal([]byte(out), &typed); err != nil {
		t.Fatal(err)
	}
	return typed
}

// TestCheckSARIF runs gdl check --format sarif on files with every kind of content gdl writes
// (related locations, fixes with insertions and replacements, non-ASCII columns, standard
// input) and checks the log against the SARIF 2.1.0 schema's constraints and its content.
func TestCheckSARIF(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	bad := writeFile(t, dir, "sub dir/bad é.gdl", "; é ü\n(role robot) (ä) ))\n")
	out, errOut, code := gdl(t, bin, "check", "../../testdata/examples/tictactoe-bug.kif", "../../testdata/check/unsafe-variable.kif",
		"../../testdata/check/inconsistent-case.kif", bad, "--format", "sarif")
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d (want 1), stderr %q", code, errOut)
	}
	// The content: the README example's unsafe variable with its rename fix, and the
	// character columns of the file with accents, whose path is escaped.
	typed := validSARIF(t, out)
	run := typed.Runs[0]
	find := func(rule, uri string, line int) *sarifResult {
		for i, r := range run.Results {
			l := r.Locations[0].PhysicalLocation
			if r.RuleID == rule && strings.HasSuffix(l.ArtifactLocation.URI, uri) && l.Region.StartLine == line {
				return &run.Results[i]
			}
		}
		t.Fatalf("no %s result at %s:%d", rule, uri, line)
		return nil
	}
	r := find("unsafe-variable", "examples/tictactoe-bug.kif", 41)
	if reg := r.Locations[0].PhysicalLocation.Region; reg != (sarifRegion{41, 23, 41, 27}) || r.Level != "error" {
		t.Errorf("region %+v, level %s", reg, r.Level)
	}
	if len(r.Fixes) < 2 || r.Fixes[0].Description.Text != "Rename ?who to ?player, the variable the rule binds" ||
		r.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != "?player" {
		t.Errorf("fixes %+v", r.Fixes)
	}
	if run.Tool.Driver.Rules[r.RuleIndex].ID != "unsafe-variable" {
		t.Errorf("ruleIndex %d names %s", r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID)
	}
	u := find("unmatched-close-paren", "bad%20%C3%A9.gdl", 2)
	if reg := u.Locations[0].PhysicalLocation.Region; reg != (sarifRegion{2, 18, 2, 19}) {
		t.Errorf("character columns: region %+v", reg)
	}
	if !strings.Contains(u.Locations[0].PhysicalLocation.ArtifactLocation.URI, "sub%20dir/") {
		t.Errorf("uri %s", u.Locations[0].PhysicalLocation.ArtifactLocation.URI)
	}
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind %s", run.ColumnKind)
	}
	// Standard input and a valid game: an empty result list, still a valid log.
	out, _, code = gdlIn(t, bin, validGame, "check", "--format", "sarif", "-")
	if code != 0 {
		t.Fatalf("valid game on stdin: exit %d\n%s", code, out)
	}
	validSARIF(t, out)
}

// TestSARIFValidatorRejects makes sure the validator is not empty: logs that break the
// schema's constraints are refused.
func TestSARIFValidatorRejects(t *testing.T) {
	for _, bad := range []string{
		`{"runs": []}`,
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {}}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a b"}}}]}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "fixes": [{"artifactChanges": []}]}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "colour": "red"}}}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if errs := validateSARIF(v, "sarifLog", "$"); len(errs) == 0 {
			t.Errorf("accepted %s", bad)
		}
	}
}
