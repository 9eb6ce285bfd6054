import BeaconPipeline
import BeaconSite
import Logging

/// Keeps a hub's calibrated radio model in a ``CalibrationFile`` across restarts: takes it up at
/// start, saves it again after each fit.
///
/// A file that cannot be read is logged and left alone (the hub calibrates afresh and replaces
/// it at its first fit); a model of other gateways is not taken; a save that fails is logged and
/// tried again at the next fit. Runs on the hub pipeline's task.
package final class CalibrationKeeper {
    private unowned let hub: AlertPipeline
    private let file: CalibrationFile
    private let logger: Logger
    private var savedFits: Int

    package init(hub: AlertPipeline, file: CalibrationFile, logger: Logger) {
        self.hub = hub
        self.file = file
        self.logger = logger
        savedFits = hub.siteCalibration?.fits ?? 0
    }

    /// Takes up the saved model, if there is one for these gateways.
    /// - Returns: whether a model was taken.
    @discardableResult
    package func takeUp() -> Bool {
        do {
            guard let saved = try file.load() else { return false }
            guard hub.restoreSiteCalibration(saved) else {
                logger.warning(
                    "calibration: \(file.path) is for other gateways (\(saved.gateways.joined(separator: ", "))); the hub calibrates afresh"
                )
                return false
            }
            savedFits = saved.fits
            logger.notice("calibration: took up the model saved in \(file.path): \(saved.summary)")
            return true
        } catch {
            logger.warning("calibration: \(error)")
            return false
        }
    }

    /// Saves the model when a fit has happened since the last save (call after each cycle with
    /// its calibration, `SiteCycleFacts.calibration`).
    package func saveAfterFit(_ calibration: CalibrationStatus?) {
        guard let status = calibration, status.fits != savedFits else { return }
        do {
            try file.save(status)
            savedFits = status.fits
        } catch {
            logger.warning("calibration: cannot save the model to \(file.path): \(error)")
        }
        logger.info("calibration: \(status.summary)")
    }
}
