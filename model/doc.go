// Package model is poisonwatch's application state and its transitions, with no
// terminal in sight: snapshots folded into history, rates, forecasts, alerts and
// dead-letter groups; sorting, fuzzy filtering, selection and navigation. The
// ui package renders it; every decision an operator relies on is made (and
// tested) here.
package model
