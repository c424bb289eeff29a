/// Golden-section search for the least value of a function on an interval.
package enum GoldenSection {
    /// The least value of `f` seen while narrowing `[low, high]` by golden sections until it is at
    /// most `width` wide (the ends themselves are not evaluated): the minimum for a function with
    /// one minimum inside the interval, else some local one.
    ///
    /// - Complexity: about log(`(high − low) / width`) / log(1.618) + 2 evaluations of `f`.
    package static func minimum(
        from low: Double, to high: Double, width: Double, _ f: (Double) -> Double
    ) -> Double {
        let ratio = (5.0.squareRoot() - 1) / 2
        var (low, high) = (low, high)
        var x1 = high - ratio * (high - low), x2 = low + ratio * (high - low)
        var f1 = f(x1), f2 = f(x2)
        var result = min(f1, f2)
        while high - low > width {
            if f1 < f2 {
                (high, x2, f2) = (x2, x1, f1)
                x1 = high - ratio * (high - low)
                f1 = f(x1)
            } else {
                (low, x1, f1) = (x1, x2, f2)
                x2 = low + ratio * (high - low)
                f2 = f(x2)
            }
            result = min(result, f1, f2)
        }
        return result
    }
}
