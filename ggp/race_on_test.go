//go:build race

package ggp

// raceDetector: the tests run with the race detector (ten times slower).
const raceDetector = true
