//go:build !race

package ggp

const raceDetector = false
