// Package javacompat reproduces the few behaviours of the Java standard
// library that leak into Paimon's files and results, so that each lives in
// one place: String.split and String.trim as Paimon's option parsing uses
// them, String.hashCode and java.util.HashMap's iteration order (HashMap:
// the order of options in schema files, of aggregated collections and maps,
// of the dynamic bucket assigner's buckets), and Java's rendering of dates,
// times and numbers.
//
// Everything here is pure and allocation-light; it imports only the
// standard library so that every layer may use it.
package javacompat
