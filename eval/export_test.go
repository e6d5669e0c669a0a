package eval

// For the external tests (package eval_test, which can import propnet).

// GroundTimesForTest returns the corpus paths of FarOver's measured games (groundTimes).
func GroundTimesForTest() []string {
	var paths []string
	for _, m := range groundTimes {
		paths = append(paths, m.path)
	}
	return paths
}

// RatioForTest is e's bound as written in times the default limits (PassEstimate.ratio).
func RatioForTest(e *GroundEstimate) float64 { return e.Plain.ratio(DefaultGroundLimits) }
