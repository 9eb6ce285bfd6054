/// A calibration file that cannot be read or written.
package struct CalibrationFileError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
