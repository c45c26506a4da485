package plots_test

import (
	"bytes"
	"fmt"
	"image/png"
	"log"

	"memsim/analysis/plots"
)

// Convergence of a simulated mean towards its exact value, written as an
// inline SVG plus a PNG fallback.
func ExampleConvergence() {
	points := []plots.ConvergencePoint{
		{Games: 10, Mean: 9.1, Lo: 7.9, Hi: 10.3},
		{Games: 100, Mean: 8.6, Lo: 8.2, Hi: 9.0},
		{Games: 1000, Mean: 8.52, Lo: 8.40, Hi: 8.64},
		{Games: 10000, Mean: 8.49, Lo: 8.45, Hi: 8.53},
	}
	exact := 8.5
	fig, err := plots.Convergence("Mean number of turns, 4 pairs", points, &exact, "Turns")
	if err != nil {
		log.Fatal(err)
	}

	// fig.SVG can be written verbatim into an HTML page.
	html := "<figure>" + string(fig.SVG) + "</figure>"
	fmt.Println(html[:len("<figure><svg")])

	img, err := png.Decode(bytes.NewReader(fig.PNG))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "pixels")
	// Output:
	// <figure><svg
	// 945 x 591 pixels
}
