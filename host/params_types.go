package host

import "github.com/matombo/matombo/host/params"

// The parameters and variants of games are those of package params,
// under the names embedders know them by.

// ParamKind is the type of a parameter's values.
type ParamKind = params.Kind

// The kinds of parameters.
const (
	IntParam    = params.Int
	BoolParam   = params.Bool
	StringParam = params.String
)

// ParamSpec describes a parameter a script declares: its name, type,
// default and allowed values.
type ParamSpec = params.Spec

// Param is a parameter and its value in a loaded game.
type Param = params.Value

// Variant is a named set of parameter values from a variants file.
type Variant = params.Variant

// Override sets one parameter when a game is loaded.
type Override = params.Override
