import Foundation
@main enum MeridianCommand { static func main() {} }
