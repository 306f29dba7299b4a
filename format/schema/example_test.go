package schema_test

import (
	"fmt"

	"github.com/paimon-go/paimon-go/format/schema"
)

// SchemaBuilder numbers the columns as Java's Schema.Builder does, nested
// fields after their column.
func ExampleNewSchemaBuilder() {
	s, err := schema.NewSchemaBuilder().
		Column("dt", schema.DateType()).
		Column("user", schema.RowType(
			schema.NewField(0, "id", schema.BigIntType()),
			schema.NewField(0, "email", schema.StringType()))).
		Column("amount", schema.DecimalType(10, 2)).
		PartitionKeys("dt").
		Option("file.format", "avro").
		Build()
	if err != nil {
		panic(err)
	}
	for _, f := range s.Fields {
		fmt.Println(f.ID, f.Name, f.Type)
	}
	fmt.Println(s.PartitionKeys, s.Options)
	// Output:
	// 0 dt DATE
	// 1 user ROW<`id` BIGINT, `email` STRING>
	// 4 amount DECIMAL(10, 2)
	// [dt] map[file.format:avro]
}
