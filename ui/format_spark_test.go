package ui

import "testing"

// TestSparklinesScaleAgainstSomethingComparable: depths are drawn against
// MAXDEPTH (a full queue is full, whatever it did before), rates from zero
// with their top printed; a flat series is a flat line.
func TestSparklinesScaleAgainstSomethingComparable(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"R8b_full_BOQ_at_40_of_40_is_full", sparkFill([]float64{40, 40, 40, 40}, 40, 4), "████"},
		{"empty_BOQ_is_the_floor", sparkFill([]float64{0, 0, 0, 0}, 2000, 4), "▁▁▁▁"},
		{"R8d_DEADQ_47_to_52_of_5000_is_low_and_flat", sparkFill([]float64{47, 50, 52, 52}, 5000, 4), "▂▂▂▂"},
		{"fill_is_linear_from_zero", sparkFill([]float64{0, 250, 500, 1000}, 1000, 4), "▁▃▅█"},
		{"no_MAXDEPTH_falls_back_to_rate", sparkFill([]float64{1, 2}, 0, 10), "  ▅█ max 2"},
		{"flat_rate_is_flat_with_its_value", sparkRate([]float64{3, 3, 3, 3}, 10), "████ max 3"},
		{"zero_rate_is_the_floor", sparkRate([]float64{0, 0, 0}, 10), " ▁▁▁ max 0"},
		{"rate_is_zero_based", sparkRate([]float64{10, 11, 12}, 11), " ▇██ max 12"},
		{"too_narrow_for_the_figure_draws_the_line", sparkRate([]float64{1, 2}, 4), "  ▅█"},
		{"the_max_is_of_what_is_drawn", sparkRate([]float64{12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 16), " ▁▁▁▁▁▁▁▁█ max 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}
