// BeaconBlueZ — see the module's documentation catalog and README for its role in the pipeline.
