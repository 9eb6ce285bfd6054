extension AlertPipeline {
    /// Looks at the pipeline as it stands between two inputs (see ``PipelineInspection``):
    /// nothing is changed, nothing is done for it until it is asked.
    public func inspect() -> PipelineInspection {
        var inspection = PipelineInspection()
        inspection.time = latestTime
        inspection.statistics = statistics
        inspection.trackedBeacons = trackedBeacons
        inspection.directory = beacons
        front.contribute(to: &inspection)
        decisions.contribute(to: &inspection, latestTime: latestTime)
        inspection.shadow = shadows.lazy.compactMap(\.comparison).first
        return inspection
    }
}
