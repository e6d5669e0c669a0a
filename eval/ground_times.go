package eval

import (
	"math"
	"time"
)

// The model of FarOver: how long a game whose bound as written (EstimateGround's) is so many
// times the limits takes to ground and to build its network. The bounds drop the correlations
// between arguments, so they say little of the time by themselves: merrills, 305 times over,
// builds in 1.4 s of CPU; BenderNG's Chess, 48 times over, in 7.9 s. Nothing in the estimate
// tells ITALY (0.9 s) from GERMANY, LOCUST_S and PIT221_S (3.8 to 4.4 s): four renamed chess
// games of the 2006 competition with the same bounds as written and restricted to four digits,
// of which ITALY grounds to a seventh of the others' ground rules. So the model is a table of
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
// bound as written to those limits (PassEstimate.ratio), the CPU time of their grounding
// (Ground), and the time of grounding and building their network (Ground and propnet.New:
// what `gdl play`'s budget of wall time covers): the lower of their CPU time in one process
// (TestMeasureGroundTimes) and of the wall time `gdl play GAME --engine compiled --playouts 1`
// reports as compile_seconds, the lower of two rounds, on an idle machine (its collector runs
// on the other core: the chess family builds in 3.8 to 4.9 s of wall time, 4.7 to 5.7 s of
// CPU). Measured on 45f2e44 on 2026-11-27 at a load of 1.0 to 1.3 on this project's 2-core
// machine, with a grounding budget of 40 s (see docs/performance.md, "Grounding and the
// interpreted games").
var groundTimes = []groundTime{
	{1.051, 190 * time.Millisecond, 190 * time.Millisecond, "arnaudsj__ggpserver/ggpserver/03_add_games/hitori.kif"},
	{1.203, 3050 * time.Millisecond, 3180 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/crissrace/crissrace.kif"},
	{8.001, 460 * time.Millisecond, 500 * time.Millisecond, games2006 + "BIRD_S.3359288923.kif"},
	{8.449, 1250 * time.Millisecond, 1380 * time.Millisecond, games2006 + "MUZONE_S.3359289251.kif"},
	{15.08, 1360 * time.Millisecond, 1370 * time.Millisecond, "arnaudsj__ggpserver/ggpserver/03_add_games/mummymaze1p.kif"},
	{19.71, 2790 * time.Millisecond, 2870 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/blobwars/blobwars.kif"},
	{21.76, 180 * time.Millisecond, 200 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/checkersSmall/checkersSmall.kif"},
	{28.49, 400 * time.Millisecond, 400 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/ad_game_2x2/ad_game_2x2.kif"},
	// 1,484,123 ground rules; gdl play stops it at its budget of 5 s.
	{47.78, 6880 * time.Millisecond, 7940 * time.Millisecond, "arnaudsj__ggpserver/gamecontroller/lib/BenderNG/testdata/games/Chess.kif"},
	{87.06, 850 * time.Millisecond, 910 * time.Millisecond, games2006 + "ITALY.3361209402.kif"},
	{87.06, 4670 * time.Millisecond, 4410 * time.Millisecond, games2006 + "GERMANY.3361209469.kif"},
	{87.06, 4870 * time.Millisecond, 3790 * time.Millisecond, games2006 + "LOCUST_S.3359299013.kif"},
	{87.06, 4470 * time.Millisecond, 4200 * time.Millisecond, games2006 + "PIT221_S.3359299094.kif"},
	{87.32, 4440 * time.Millisecond, 3840 * time.Millisecond, games2006 + "FRANCE.3361209275.kif"},
	{87.32, 4160 * time.Millisecond, 4230 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/slaughter/slaughter.kif"},
	{87.32, 4440 * time.Millisecond, 4450 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/chess/chess.kif"},
	{87.33, 4190 * time.Millisecond, 4460 * time.Millisecond, games2006 + "PORTUGAL.3361209339.kif"},
	// No grounding in 40 s (22 s of CPU): more than 8 million literals in ground rules.
	{218.5, neverBuilds, neverBuilds, "ggp-org__ggp-repository/war/root/games/gt_two_thirds_6p/gt_two_thirds_6p.kif"},
	{305.1, 1230 * time.Millisecond, 1390 * time.Millisecond, "ggp-org__ggp-repository/war/root/games/merrills/merrills.kif"},
	// More than 2 million atoms (after 1.2 s).
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
