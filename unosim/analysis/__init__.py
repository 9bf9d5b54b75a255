"""Reading results: reports, interval maths, plots."""
