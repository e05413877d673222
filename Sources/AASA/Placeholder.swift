public enum AASAPlaceholder {}
