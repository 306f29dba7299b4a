package jackson_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// The expected documents are what Jackson 2.14's ObjectMapper writes with
// writerWithDefaultPrettyPrinter() (pretty) and with no printer (compact).
func TestWriter(t *testing.T) {
	tests := []struct {
		name    string
		write   func(w *jackson.Writer)
		pretty  string
		compact string
	}{
		{
			name:    "empty object",
			write:   func(w *jackson.Writer) { w.BeginObject(); w.EndObject() },
			pretty:  "{ }",
			compact: "{}",
		},
		{
			name:    "empty array",
			write:   func(w *jackson.Writer) { w.BeginArray(); w.EndArray() },
			pretty:  "[ ]",
			compact: "[]",
		},
		{
			name: "scalar members",
			write: func(w *jackson.Writer) {
				w.BeginObject()
				w.StringField("s", "v")
				w.IntField("i", -42)
				w.Name("t")
				w.Bool(true)
				w.Name("f")
				w.Bool(false)
				w.Name("n")
				w.Null()
				w.Name("r")
				w.Raw([]byte("5.000000000"))
				w.EndObject()
			},
			pretty:  "{\n  \"s\" : \"v\",\n  \"i\" : -42,\n  \"t\" : true,\n  \"f\" : false,\n  \"n\" : null,\n  \"r\" : 5.000000000\n}",
			compact: `{"s":"v","i":-42,"t":true,"f":false,"n":null,"r":5.000000000}`,
		},
		{
			name: "inline scalar arrays and empty containers as members",
			write: func(w *jackson.Writer) {
				w.BeginObject()
				w.Name("keys")
				w.BeginArray()
				w.String("a")
				w.String("b")
				w.EndArray()
				w.Name("ints")
				w.BeginArray()
				w.Int(2026)
				w.Null()
				w.Bool(true)
				w.EndArray()
				w.Name("none")
				w.BeginArray()
				w.EndArray()
				w.Name("options")
				w.BeginObject()
				w.EndObject()
				w.EndObject()
			},
			pretty:  "{\n  \"keys\" : [ \"a\", \"b\" ],\n  \"ints\" : [ 2026, null, true ],\n  \"none\" : [ ],\n  \"options\" : { }\n}",
			compact: `{"keys":["a","b"],"ints":[2026,null,true],"none":[],"options":{}}`,
		},
		{
			name: "objects in an array and nested objects",
			write: func(w *jackson.Writer) {
				w.BeginObject()
				w.IntField("version", 3)
				w.Name("fields")
				w.BeginArray()
				w.BeginObject()
				w.IntField("id", 0)
				w.Name("type")
				w.BeginObject()
				w.StringField("type", "ARRAY")
				w.StringField("element", "INT")
				w.EndObject()
				w.EndObject()
				w.BeginObject()
				w.EndObject()
				w.BeginObject()
				w.IntField("id", 1)
				w.EndObject()
				w.EndArray()
				w.Name("options")
				w.BeginObject()
				w.StringField("bucket", "1")
				w.EndObject()
				w.EndObject()
			},
			pretty: `{
  "version" : 3,
  "fields" : [ {
    "id" : 0,
    "type" : {
      "type" : "ARRAY",
      "element" : "INT"
    }
  }, { }, {
    "id" : 1
  } ],
  "options" : {
    "bucket" : "1"
  }
}`,
			compact: `{"version":3,"fields":[{"id":0,"type":{"type":"ARRAY","element":"INT"}},{},{"id":1}],"options":{"bucket":"1"}}`,
		},
		{
			name: "nested arrays",
			write: func(w *jackson.Writer) {
				w.BeginArray()
				w.BeginArray()
				w.Int(1)
				w.EndArray()
				w.BeginArray()
				w.EndArray()
				w.EndArray()
			},
			pretty:  "[ [ 1 ], [ ] ]",
			compact: "[[1],[]]",
		},
		{
			name: "top-level scalar",
			write: func(w *jackson.Writer) {
				w.String("INT NOT NULL")
			},
			pretty:  `"INT NOT NULL"`,
			compact: `"INT NOT NULL"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := jackson.NewWriter(true)
			tt.write(p)
			require.Equal(t, tt.pretty, string(p.Bytes()))
			c := jackson.NewWriter(false)
			tt.write(c)
			require.Equal(t, tt.compact, string(c.Bytes()))
		})
	}
}

func TestWriterEscapesNames(t *testing.T) {
	w := jackson.NewWriter(true)
	w.BeginObject()
	w.StringField("a\"b\n", "x")
	w.EndObject()
	require.Equal(t, "{\n  \"a\\\"b\\n\" : \"x\"\n}", string(w.Bytes()))
}
