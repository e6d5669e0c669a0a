package eval

import (
	"math"
	"time"
)

// The model of FarOver: how long a game whose bound as written (EstimateGround's) is so many
// times the limits takes to ground and to build its network. The bounds drop the correlations
// between arguments, so they say little of the time by themselves: merrills, 305 times over,
// builds in 2.4 s of CPU; chess, 87 times over, in 10.8 s. Nothing in the estimate tells ITALY
// (2.2 s) from GERMANY, LOCUST_S and PIT221_S (8.2 to 8.8 s): four renamed chess games of the
// 2006 competition with the same bounds as written and restricted to four digits, of which
// ITALY grounds to a seventh of the others' ground rules. So the model is a table of
// measured games (groundTimes) read two ways:
//
//   - a game whose bound is within alikeRatio of measured games is taken to be one of them (a
//     copy or a variant): it takes as long as the slowest of them;
//   - another takes at least as long as the fastest measured game whose bound is as far over
//     or further (the table's lower envelope), in proportion to the ratio past the largest
//     ratio measured that builds.
//
// A game that builds faster than the table says runs interpreted until the table is measured
// again; TestEstimateBoundsGrounding (without -short, every corpus game, 10 s) fails on a game
// that FarOver gives up and that grounds, unless a measured game alike to it is slower, and
// TestGroundTimesAreCurrent fails when a change of the estimate moves a game's bound away from
// its row. GDL_GROUND_TIMES=1 go test ./eval -run TestMeasureGroundTimes -v measures the table
// again and prints its rows.

// alikeRatio is how close two bounds as written must be for their games to count as alike.
// Copies of a game have equal bounds, the chess family's are within 0.3% of each other (87.06
// to 87.33), and distinct games of the table are 5.6% apart or more (BIRD_S and MUZONE_S).
const alikeRatio = 1.03

// neverBuilds is the time of a measured game that does not ground within the limits.
const neverBuilds = time.Duration(math.MaxInt64)

// groundTimes are the measurements behind FarOver's model, in increasing ratio: corpus games
// whose bound restricted by magic sets is over the default limits, with the ratio of their
// bound as written to those limits (PassEstimate.ratio) and the CPU time of their grounding
// (Ground) and of grounding and building their network (Ground and propnet.New: what `gdl
// play`'s budget of wall time covers), each game alone in a process (one goroutine: on an
// idle machine the wall time is about the same), the lower of two rounds and of two copies.
// Measured on 50b1918 on 2026-11-27 at a load of 5 to 8 on this project's 2-core machine,
// with a grounding budget of 40 s (see docs/performance.md, "Grounding and the interpreted
// games").
var groundTimes = []groundTime{
	{1.051, 190 * time.Millisecond, 220 * time.Millisecond, "arnaudsj__ggpserver/ggpserver/03_add_games/hitori.kif"},
	{1.203, 3070 * time.Millisecond, 3270 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/crissrace/crissrace.kif"},
	{8.001, 400 * time.Millisecond, 600 * time.Millisecond, games2006 + "BIRD_S.3359288923.kif"},
	{8.449, 880 * time.Millisecond, 1530 * time.Millisecond, games2006 + "MUZONE_S.3359289251.kif"},
	{15.08, 1990 * time.Millisecond, 2070 * time.Millisecond, "arnaudsj__ggpserver/ggpserver/03_add_games/mummymaze1p.kif"},
	{19.71, 2260 * time.Millisecond, 2760 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/blobwars/blobwars.kif"},
	{21.76, 270 * time.Millisecond, 310 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/checkersSmall/checkersSmall.kif"},
	{28.49, 640 * time.Millisecond, 700 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/ad_game_2x2/ad_game_2x2.kif"},
	// More than 1.5 million ground rules (after 11 s).
	{47.78, neverBuilds, neverBuilds, "arnaudsj__ggpserver/gamecontroller/lib/BenderNG/testdata/games/Chess.kif"},
	{87.06, 1930 * time.Millisecond, 2240 * time.Millisecond, games2006 + "ITALY.3361209402.kif"},
	{87.06, 5730 * time.Millisecond, 8180 * time.Millisecond, games2006 + "GERMANY.3361209469.kif"},
	{87.06, 6080 * time.Millisecond, 8330 * time.Millisecond, games2006 + "LOCUST_S.3359299013.kif"},
	{87.06, 6320 * time.Millisecond, 8750 * time.Millisecond, games2006 + "PIT221_S.3359299094.kif"},
	{87.32, 4780 * time.Millisecond, 6790 * time.Millisecond, games2006 + "FRANCE.3361209275.kif"},
	{87.32, 5640 * time.Millisecond, 8000 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/slaughter/slaughter.kif"},
	{87.32, 7480 * time.Millisecond, 10800 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/chess/chess.kif"},
	{87.33, 6360 * time.Millisecond, 9360 * time.Millisecond, games2006 + "PORTUGAL.3361209339.kif"},
	// No grounding in 40 s (19 s of CPU): the atoms of aux 0/2 are not computed.
	{218.5, neverBuilds, neverBuilds, "ggp-org__ggp-repository/war/root/games/gt_two_thirds_6p/gt_two_thirds_6p.kif"},
	{305.1, 1550 * time.Millisecond, 2370 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/merrills/merrills.kif"},
	// More than 2 million atoms (after 1.8 s).
	{1937, neverBuilds, neverBuilds, "ggp-org__ggp-repository/war/root/games/sudoku/sudoku.kif"},
}

// games2006 is the corpus folder of the 2006 competition's games.
const games2006 = "arnaudsj__ggpserver/GgpRatingSystem/data/competition2006/original_data/2006games/"

// A groundTime is one measured game (groundTimes).
type groundTime struct {
	ratio  float64       // the bound as written, in times the default limits
	ground time.Duration // Ground's CPU time (neverBuilds: it does not ground)
	build  time.Duration // Ground's and propnet.New's CPU time
	path   string        // the game in the corpus
}

// buildTime is the model of FarOver: the time a game whose bound as written is ratio times the
// limits can be expected to take to ground and build its network. See groundTimes.
func buildTime(ratio float64) time.Duration {
	if m, ok := slowestAlike(ratio); ok {
		return m.build
	}
	least := neverBuilds
	var last groundTime // the measured game of the largest ratio that builds
	for _, m := range groundTimes {
		if m.build == neverBuilds {
			continue
		}
		if m.ratio >= ratio {
			least = min(least, m.build)
		}
		last = m
	}
	if ratio > last.ratio {
		least = min(least, time.Duration(float64(last.build)*ratio/last.ratio))
	}
	return least
}

// slowestAlike returns the slowest measured game whose bound is within alikeRatio of ratio, if
// there is one.
func slowestAlike(ratio float64) (groundTime, bool) {
	var slowest groundTime
	found := false
	for _, m := range groundTimes {
		if ratio <= m.ratio*alikeRatio && m.ratio <= ratio*alikeRatio && (!found || m.build > slowest.build) {
			slowest, found = m, true
		}
	}
	return slowest, found
}

// Alike reports whether FarOver's model takes the games of e and o, estimated under lim, for
// copies or variants of one game: their bounds as written are within alikeRatio of each other.
func (e *GroundEstimate) Alike(o *GroundEstimate, lim GroundLimits) bool {
	lim = lim.withDefaults()
	a, b := e.Plain.ratio(lim), o.Plain.ratio(lim)
	return a > 0 && b > 0 && a <= b*alikeRatio && b <= a*alikeRatio
}
