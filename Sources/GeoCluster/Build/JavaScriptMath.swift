/// `Math.exp`, `Math.log` and `Math.atan` as JavaScript engines built on fdlibm compute them (V8,
/// and so Node, whose supercluster the cluster index reproduces): the same argument reductions,
/// polynomials and operation order, so that each result is the same double to the last bit.
///
/// The system library (glibc) rounds these functions correctly, fdlibm to within one unit in the
/// last place, so the two differ in the last bit for a few percent of arguments. supercluster turns
/// a cluster's center back into a latitude with `atan(exp(·))`, and its tree's selection takes
/// `exp` and `log` of counts; with these, centers and tree order match it bit for bit.
///
/// Each function is O(1), allocates nothing, and handles every double (NaN, ±infinity, zeros,
/// subnormals) as fdlibm does.
@usableFromInline
enum JavaScriptMath {
    /// The high 32 bits of a double's representation, as a signed integer.
    @inline(__always)
    private static func high(_ x: Double) -> Int32 {
        Int32(truncatingIfNeeded: x.bitPattern >> 32)
    }

    /// The low 32 bits of a double's representation.
    @inline(__always)
    private static func low(_ x: Double) -> UInt32 {
        UInt32(truncatingIfNeeded: x.bitPattern)
    }

    /// A double from its high and low 32 bits.
    @inline(__always)
    private static func double(high: Int32, low: UInt32) -> Double {
        Double(bitPattern: UInt64(UInt32(bitPattern: high)) << 32 | UInt64(low))
    }

    // MARK: - exp

    private static var ln2High: Double { Double(bitPattern: 0x3FE6_2E42_FEE0_0000) }
    private static var ln2Low: Double { Double(bitPattern: 0x3DEA_39EF_3579_3C76) }
    private static var inverseLn2: Double { Double(bitPattern: 0x3FF7_1547_652B_82FE) }
    private static var expP1: Double { Double(bitPattern: 0x3FC5_5555_5555_553E) }
    private static var expP2: Double { Double(bitPattern: 0xBF66_C16C_16BE_BD93) }
    private static var expP3: Double { Double(bitPattern: 0x3F11_566A_AF25_DE2C) }
    private static var expP4: Double { Double(bitPattern: 0xBEBB_BD41_C5D2_6BF1) }
    private static var expP5: Double { Double(bitPattern: 0x3E66_3769_72BE_A4D0) }
    private static var overflowThreshold: Double { Double(bitPattern: 0x4086_2E42_FEFA_39EF) }
    private static var underflowThreshold: Double { Double(bitPattern: 0xC087_4910_D52D_3051) }

    /// e^x: x = k·ln 2 + r with |r| ≤ ln 2 / 2 (r carried as hi − lo), e^r from a rational
    /// approximation whose polynomial is of degree 5 in r², then scaled by 2^k.
    @usableFromInline
    static func exp(_ value: Double) -> Double {
        var x = value
        var hx = UInt32(bitPattern: high(x))
        let negative = hx >> 31 == 1
        hx &= 0x7FFF_FFFF
        if hx >= 0x4086_2E42 {  // |x| ≥ 709.78…
            if hx >= 0x7FF0_0000 {
                if (hx & 0xF_FFFF) | low(x) != 0 { return x + x }  // NaN
                return negative ? 0 : x  // e^±∞
            }
            if x > overflowThreshold { return .infinity }
            if x < underflowThreshold { return 0 }
        }
        var hi = 0.0, lo = 0.0
        var k: Int32 = 0
        if hx > 0x3FD6_2E42 {  // |x| > ln 2 / 2
            if hx < 0x3FF0_A2B2 {  // and < 3 ln 2 / 2
                // fdlibm's engines answer e itself here, where the reduction loses the last bit.
                if x == 1 { return Double(bitPattern: 0x4005_BF0A_8B14_5769) }
                hi = negative ? x + ln2High : x - ln2High
                lo = negative ? -ln2Low : ln2Low
                k = negative ? -1 : 1
            } else {
                k = Int32(inverseLn2 * x + (negative ? -0.5 : 0.5))
                let t = Double(k)
                hi = x - t * ln2High  // exact
                lo = t * ln2Low
            }
            x = hi - lo
        } else if hx < 0x3E30_0000 {  // |x| < 2^-28
            return 1 + x
        }
        let t = x * x
        let twoToK =
            k >= -1021
            ? double(high: 0x3FF0_0000 &+ (k << 20), low: 0)
            : double(high: 0x3FF0_0000 &+ ((k &+ 1000) << 20), low: 0)
        let c = x - t * (expP1 + t * (expP2 + t * (expP3 + t * (expP4 + t * expP5))))
        if k == 0 { return 1 - ((x * c) / (c - 2) - x) }
        let y = 1 - ((lo - (x * c) / (2 - c)) - hi)
        if k >= -1021 {
            if k == 1024 { return y * 2 * 0x1p1023 }
            return y * twoToK
        }
        return y * twoToK * 0x1p-1000
    }

    // MARK: - log

    private static var lg1: Double { Double(bitPattern: 0x3FE5_5555_5555_5593) }
    private static var lg2: Double { Double(bitPattern: 0x3FD9_9999_9997_FA04) }
    private static var lg3: Double { Double(bitPattern: 0x3FD2_4924_9422_9359) }
    private static var lg4: Double { Double(bitPattern: 0x3FCC_71C5_1D8E_78AF) }
    private static var lg5: Double { Double(bitPattern: 0x3FC7_4664_96CB_03DE) }
    private static var lg6: Double { Double(bitPattern: 0x3FC3_9A09_D078_C69F) }
    private static var lg7: Double { Double(bitPattern: 0x3FC2_F112_DF3E_5244) }

    /// The natural logarithm: x = 2^k·(1 + f) with √2/2 < 1 + f < √2, log(1 + f) from
    /// s = f/(2 + f) and a polynomial of degree 14 in s, plus k·ln 2 in two parts.
    @usableFromInline
    static func log(_ value: Double) -> Double {
        var x = value
        var hx = high(x)
        var k: Int32 = 0
        if hx < 0x0010_0000 {  // x < 2^-1022
            if (hx & 0x7FFF_FFFF) == 0 && low(x) == 0 { return -.infinity }
            if hx < 0 { return .nan }
            k -= 54
            x *= 0x1p54  // subnormal: scale up
            hx = high(x)
        }
        if hx >= 0x7FF0_0000 { return x + x }
        k += (hx >> 20) - 1023
        hx &= 0x000F_FFFF
        let i = (hx &+ 0x95F64) & 0x10_0000
        x = double(high: hx | (i ^ 0x3FF0_0000), low: low(x))  // x or x/2 into [√2/2, √2)
        k += i >> 20
        let f = x - 1
        let dk = Double(k)
        if (0x000F_FFFF & (2 &+ hx)) < 3 {  // |f| < 2^-20
            if f == 0 { return k == 0 ? 0 : dk * ln2High + dk * ln2Low }
            let r = f * f * (0.5 - 0.33333333333333333 * f)
            return k == 0 ? f - r : dk * ln2High - ((r - dk * ln2Low) - f)
        }
        let s = f / (2 + f)
        let z = s * s
        let w = z * z
        let t1 = w * (lg2 + w * (lg4 + w * lg6))
        let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
        let r = t2 + t1
        if ((hx &- 0x6147A) | (0x6B851 &- hx)) > 0 {
            let hfsq = 0.5 * f * f
            return k == 0
                ? f - (hfsq - s * (hfsq + r))
                : dk * ln2High - ((hfsq - (s * (hfsq + r) + dk * ln2Low)) - f)
        }
        return k == 0 ? f - s * (f - r) : dk * ln2High - ((s * (f - r) - dk * ln2Low) - f)
    }

    // MARK: - atan

    /// atan(1/2), atan(1), atan(3/2) and atan(∞) in two parts each: high, then low.
    @inline(__always)
    private static func atanParts(_ id: Int) -> (high: Double, low: Double) {
        switch id {
        case 0:
            (Double(bitPattern: 0x3FDD_AC67_0561_BB4F), Double(bitPattern: 0x3C7A_2B7F_222F_65E2))
        case 1:
            (Double(bitPattern: 0x3FE9_21FB_5444_2D18), Double(bitPattern: 0x3C81_A626_3314_5C07))
        case 2:
            (Double(bitPattern: 0x3FEF_730B_D281_F69B), Double(bitPattern: 0x3C70_0788_7AF0_CBBD))
        default:
            (Double(bitPattern: 0x3FF9_21FB_5444_2D18), Double(bitPattern: 0x3C91_A626_3314_5C07))
        }
    }

    /// The arctangent in radians: |x| reduced to [0, 7/16] directly or around atan(1/2),
    /// atan(1), atan(3/2) or atan(∞), then an odd polynomial of degree 23 split into its odd and
    /// even halves in x⁴.
    @usableFromInline
    static func atan(_ value: Double) -> Double {
        var x = value
        let hx = high(x)
        let ix = hx & 0x7FFF_FFFF
        if ix >= 0x4410_0000 {  // |x| ≥ 2^66
            if ix > 0x7FF0_0000 || (ix == 0x7FF0_0000 && low(x) != 0) { return x + x }  // NaN
            let infinity = atanParts(3)
            return hx > 0 ? infinity.high + infinity.low : -infinity.high - infinity.low
        }
        var id = -1
        if ix < 0x3FDC_0000 {  // |x| < 0.4375
            if ix < 0x3E40_0000 { return x }  // |x| < 2^-27
        } else {
            x = abs(x)
            if ix < 0x3FF3_0000 {  // |x| < 1.1875
                if ix < 0x3FE6_0000 {  // 7/16 ≤ |x| < 11/16
                    id = 0
                    x = (2 * x - 1) / (2 + x)
                } else {  // 11/16 ≤ |x| < 19/16
                    id = 1
                    x = (x - 1) / (x + 1)
                }
            } else if ix < 0x4003_8000 {  // |x| < 2.4375
                id = 2
                x = (x - 1.5) / (1 + 1.5 * x)
            } else {  // 2.4375 ≤ |x| < 2^66
                id = 3
                x = -1 / x
            }
        }
        let a0 = Double(bitPattern: 0x3FD5_5555_5555_550D)
        let a1 = Double(bitPattern: 0xBFC9_9999_9998_EBC4)
        let a2 = Double(bitPattern: 0x3FC2_4924_9200_83FF)
        let a3 = Double(bitPattern: 0xBFBC_71C6_FE23_1671)
        let a4 = Double(bitPattern: 0x3FB7_45CD_C54C_206E)
        let a5 = Double(bitPattern: 0xBFB3_B0F2_AF74_9A6D)
        let a6 = Double(bitPattern: 0x3FB1_0D66_A0D0_3D51)
        let a7 = Double(bitPattern: 0xBFAD_DE2D_52DE_FD9A)
        let a8 = Double(bitPattern: 0x3FA9_7B4B_2476_0DEB)
        let a9 = Double(bitPattern: 0xBFA2_B444_2C6A_6C2F)
        let a10 = Double(bitPattern: 0x3F90_AD3A_E322_DA11)
        let z = x * x
        let w = z * z
        let s1 = z * (a0 + w * (a2 + w * (a4 + w * (a6 + w * (a8 + w * a10)))))
        let s2 = w * (a1 + w * (a3 + w * (a5 + w * (a7 + w * a9))))
        if id < 0 { return x - x * (s1 + s2) }
        let parts = atanParts(id)
        let result = parts.high - ((x * (s1 + s2) - parts.low) - x)
        return hx < 0 ? -result : result
    }
}
